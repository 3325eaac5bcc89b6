import { ApiKey } from '../../src/api-keys/api-key.entity';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, rest, WebClient } from '../helpers/web-client';

const DAY = 24 * 60 * 60 * 1000;
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/** docs/api.md#limits and docs/api.md#permissions: key management in Settings → API keys. */
describe('API key management (web app routes)', () => {
  let app: TestApp;
  let admin: WebClient;
  let roles: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'admin@example.com' })).client;
    roles = Object.fromEntries(
      (await admin.ok('GET', '/app/api/roles')).data.map((role: { name: string; id: string }) => [
        role.name,
        role.id,
      ]),
    );
  });
  afterAll(() => app.close());

  async function memberWithRole(email: string, roleId: string): Promise<WebClient> {
    return (await addMemberByInvitation(app.baseUrl, admin, { email, roleId })).client;
  }

  it('creates a standard key: 64 letters shown once, stored hashed, never returned again', async () => {
    const created = await admin.ok('POST', '/app/api/api-keys', { name: 'CI pipeline' });
    expect(created.value).toMatch(/^[A-Za-z]{64}$/);
    expect(created.apiKey).toMatchObject({
      name: 'CI pipeline',
      kind: 'standard',
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(Date.parse(created.apiKey.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(created.snippet.text).toContain(created.value);
    expect(created.snippet.text).toContain(`${app.baseUrl}/api/v1/mcp`);

    const listed = await admin.request('GET', '/app/api/api-keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.value);
    const stored = await app.dataSource.manager.findOneByOrFail(ApiKey, { id: created.apiKey.id });
    expect(stored.keyHash).not.toContain(created.value);
    expect(JSON.stringify(listed.body)).not.toContain(stored.keyHash);
  });

  it.each([
    [{ name: '' }, 'apiKeyNameRequired', ['name']],
    [{ name: '   ' }, 'apiKeyNameRequired', ['name']],
    [{ name: 'x'.repeat(256) }, 'apiKeyNameTooLong', ['name']],
    [{}, 'required', ['name']],
    [{ name: 'ok', expiresAt: isoDate(Date.now()) }, 'apiKeyExpiryTooSoon', ['expiresAt']],
    [{ name: 'ok', expiresAt: isoDate(Date.now() + 400 * DAY) }, 'apiKeyExpiryTooLate', ['expiresAt']],
    [{ name: 'ok', expiresAt: 'tomorrow' }, 'apiKeyExpiryInvalid', ['expiresAt']],
  ])('refuses %j with %s and writes nothing', async (body, customCode, path) => {
    const before = await app.dataSource.manager.count(ApiKey);
    const refused = await admin.request<any>('POST', '/app/api/api-keys', body);
    expect(refused.status).toBe(400);
    expect(refused.body.error.kind).toBe('validation');
    expect(refused.body.error.issues[0]).toMatchObject({ customCode, path });
    expect(await app.dataSource.manager.count(ApiKey)).toBe(before);
  });

  it('accepts names of 1 and 255 characters and expiry dates 1 and 365 days ahead', async () => {
    await admin.ok('POST', '/app/api/api-keys', { name: 'x' });
    await admin.ok('POST', '/app/api/api-keys', { name: 'y'.repeat(255) });
    const soon = await admin.ok('POST', '/app/api/api-keys', {
      name: 'soon',
      expiresAt: isoDate(Date.now() + DAY),
    });
    // A date without a time zone is read in UTC: the key works to the end of that day.
    expect(soon.apiKey.expiresAt).toBe(`${isoDate(Date.now() + DAY)}T23:59:59.999Z`);
    await admin.ok('POST', '/app/api/api-keys', { name: 'late', expiresAt: isoDate(Date.now() + 365 * DAY) });
  });

  it('reads a date in the sent time zone, never less than 24 h ahead; refuses an exact time under 24 h (issue 10, hole 8)', async () => {
    const zone = 'Pacific/Kiritimati'; // UTC+14: its "tomorrow" can be UTC's day after tomorrow
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    const tomorrow = isoDate(Date.parse(`${today}T00:00:00Z`) + DAY);
    const before = Date.now();
    const created = await admin.ok('POST', '/app/api/api-keys', {
      name: 'zoned',
      expiresAt: tomorrow,
      timeZone: zone,
    });
    // 23:59:59.999 at UTC+14 is 09:59:59.999 UTC the same day.
    expect(created.apiKey.expiresAt).toBe(`${tomorrow}T09:59:59.999Z`);
    expect(Date.parse(created.apiKey.expiresAt) - before).toBeGreaterThanOrEqual(DAY);

    const count = await app.dataSource.manager.count(ApiKey);
    for (const [body, customCode, path] of [
      [{ expiresAt: today, timeZone: zone }, 'apiKeyExpiryTooSoon', ['expiresAt']],
      [
        { expiresAt: isoDate(Date.parse(`${today}T00:00:00Z`) + 366 * DAY), timeZone: zone },
        'apiKeyExpiryTooLate',
        ['expiresAt'],
      ],
      [{ expiresAt: tomorrow, timeZone: 'Nowhere/Special' }, 'apiKeyTimeZoneInvalid', ['timeZone']],
      [
        { expiresAt: new Date(Date.now() + 23 * 60 * 60 * 1000).toISOString() },
        'apiKeyExpiryTooSoon',
        ['expiresAt'],
      ],
    ] as const) {
      const refused = await admin.request<any>('POST', '/app/api/api-keys', { name: 'no', ...body });
      expect([body, refused.status, refused.body.error.issues[0]]).toEqual([
        body,
        400,
        expect.objectContaining({ customCode, path }),
      ]);
    }
    expect(await app.dataSource.manager.count(ApiKey)).toBe(count);
  });

  it('makes a quick-connection key named after the client, expiring exactly 365 days after creation', async () => {
    const created = await admin.ok('POST', '/app/api/api-keys/quick', { clientKind: 'cursor' });
    expect(created.apiKey).toMatchObject({ name: 'Cursor', kind: 'quick', clientKind: 'cursor' });
    expect(Date.parse(created.apiKey.expiresAt) - Date.parse(created.apiKey.createdAt)).toBe(365 * DAY);
    expect(JSON.parse(created.snippet.text)).toEqual({
      mcpServers: { crm: { url: `${app.baseUrl}/api/v1/mcp`, headers: { 'x-api-key': created.value } } },
    });
    expect((await rest(app.baseUrl, created.value)).status).toBe(200);

    // Name and date cannot be chosen there.
    const chosen = await admin.request<any>('POST', '/app/api/api-keys/quick', {
      clientKind: 'cursor',
      name: 'Mine',
    });
    expect(chosen.status).toBe(400);
  });

  it('offers every quick connection, and OAuth-based ones create no key', async () => {
    const offered = (await admin.ok('GET', '/app/api/quick-connections')).data;
    expect(offered.map((c: { label: string }) => c.label)).toEqual(
      expect.arrayContaining(['Claude Desktop', 'Cursor', 'VS Code', 'Windsurf', 'n8n', 'Zapier', 'Make']),
    );
    const oauth = offered.filter((c: { auth: string }) => c.auth === 'oauth');
    expect(oauth.length).toBeGreaterThanOrEqual(2);
    for (const connection of oauth) {
      expect(connection.instructions).toContain('/api/v1/mcp');
      const before = await app.dataSource.manager.count(ApiKey);
      const refused = await admin.request<any>('POST', '/app/api/api-keys/quick', {
        clientKind: connection.id,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues[0].customCode).toBe('quickConnectionUsesOAuth');
      expect(await app.dataSource.manager.count(ApiKey)).toBe(before);
    }
    for (const connection of offered.filter((c: { auth: string }) => c.auth === 'apiKey')) {
      const created = await admin.ok('POST', '/app/api/api-keys/quick', { clientKind: connection.id });
      expect(created.apiKey.name).toBe(connection.label);
      expect(created.snippet.text).toContain(created.value);
    }
  });

  it('shows each person only their own keys; nobody, Admin included, sees or deletes another member’s', async () => {
    const member = await memberWithRole('member@example.com', roles.Member!);
    const memberKey = await member.ok('POST', '/app/api/api-keys', { name: 'member key' });
    const adminKeys = (await admin.ok('GET', '/app/api/api-keys')).data;
    expect(adminKeys.map((k: { id: string }) => k.id)).not.toContain(memberKey.apiKey.id);
    expect((await member.ok('GET', '/app/api/api-keys')).data.map((k: { id: string }) => k.id)).toEqual([
      memberKey.apiKey.id,
    ]);

    const deleteOthers = await admin.request<any>('DELETE', `/app/api/api-keys/${memberKey.apiKey.id}`);
    expect(deleteOthers.status).toBe(404);
    expect(deleteOthers.body.error.issues[0].customCode).toBe('apiKeyNotFound');
    expect((await rest(app.baseUrl, memberKey.value)).status).toBe(200);
  });

  it('lists newest first, and shows a key’s Last used after a call', async () => {
    const member = await memberWithRole('order@example.com', roles.Member!);
    const first = await member.ok('POST', '/app/api/api-keys', { name: 'first' });
    await member.ok('POST', '/app/api/api-keys', { name: 'second' });
    await rest(app.baseUrl, first.value);
    const listed = (await member.ok('GET', '/app/api/api-keys')).data;
    expect(listed.map((k: { name: string }) => k.name)).toEqual(['second', 'first']);
    expect(listed[1].lastUsedAt).not.toBeNull();
    expect(listed[0].lastUsedAt).toBeNull();
  });

  it('follows the role row: Read lists, Create creates, Delete deletes', async () => {
    const viewer = await memberWithRole('viewer@example.com', roles.Viewer!);
    expect((await viewer.ok('GET', '/app/api/api-keys')).data).toEqual([]);
    const refusedCreate = await viewer.request<any>('POST', '/app/api/api-keys', { name: 'nope' });
    expect(refusedCreate.status).toBe(403);
    expect(refusedCreate.body.error.issues[0].customCode).toBe('insufficientPermissions');
    expect((await viewer.request('POST', '/app/api/api-keys/quick', { clientKind: 'cursor' })).status).toBe(
      403,
    );

    const createOnly = await admin.ok('POST', '/app/api/roles', {
      name: 'Creators',
      apiRead: 'all',
      apiCreate: true,
    });
    const creator = await memberWithRole('creator@example.com', createOnly.id);
    const made = await creator.ok('POST', '/app/api/api-keys', { name: 'mine' });
    const refusedDelete = await creator.request<any>('DELETE', `/app/api/api-keys/${made.apiKey.id}`);
    expect(refusedDelete.status).toBe(403);
    expect(refusedDelete.body.error.issues[0].customCode).toBe('insufficientPermissions');

    await admin.ok('PATCH', `/app/api/roles/${createOnly.id}`, { apiDelete: true });
    await creator.ok('DELETE', `/app/api/api-keys/${made.apiKey.id}`);
    expect((await rest(app.baseUrl, made.value)).status).toBe(401);

    const none = await admin.ok('POST', '/app/api/roles', { name: 'Hidden' });
    const hidden = await memberWithRole('hidden@example.com', none.id);
    expect((await hidden.request('GET', '/app/api/api-keys')).status).toBe(403);
    const session = await hidden.ok('GET', '/app/api/session');
    expect(session.permissions).toMatchObject({ apiRead: false, apiCreate: false, manageWorkspace: false });
  });

  it('answers 404 for a key id that is malformed or not the caller’s', async () => {
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const refused = await admin.request<any>('DELETE', `/app/api/api-keys/${id}`);
      expect(refused.status).toBe(404);
      expect(refused.body.error.issues[0].customCode).toBe('apiKeyNotFound');
    }
  });
});
