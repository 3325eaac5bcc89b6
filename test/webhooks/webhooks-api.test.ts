import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

/** Webhooks over REST: updates, paging and search, tenancy, and each row of the permissions table. */
describe('webhooks API', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const create = async (key: string, body: Record<string, unknown> = {}) =>
    api(key, 'POST', '/webhooks', { url: 'https://example.com/hook', events: ['record.created'], ...body });

  async function keyWithRole(email: string, row: Record<string, unknown>): Promise<string> {
    const role = await admin.ok('POST', '/app/api/roles', { name: email, ...row });
    const { client } = await addMemberByInvitation(app.baseUrl, admin, { email, roleId: role.id });
    // Keys are created while the role still has Create; the row under test is set afterwards.
    await admin.ok('PATCH', `/app/api/roles/${role.id}`, { apiRead: 'all', apiCreate: true });
    const key = (await client.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
    await admin.ok('PATCH', `/app/api/roles/${role.id}`, {
      apiRead: 'all',
      apiCreate: false,
      apiEdit: false,
      apiDelete: false,
      ...row,
    });
    return key;
  }

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'owner@example.com' })).client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
  });
  afterAll(() => app.close());

  it('changes only the fields sent; omitting headers keeps them; null clears secret, headers and template', async () => {
    const created = (
      await create(adminKey, {
        description: 'first',
        secret: 'sekrit',
        headers: { 'X-Token': 'abc' },
        bodyTemplate: '{"e":"{{event}}"}',
      })
    ).body;
    const renamed = (await api(adminKey, 'PATCH', `/webhooks/${created.id}`, { description: 'second' })).body;
    expect(renamed).toMatchObject({
      description: 'second',
      hasSecret: true,
      headerNames: ['X-Token'],
      bodyTemplate: '{"e":"{{event}}"}',
    });
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const disabled = (await api(adminKey, 'PATCH', `/webhooks/${created.id}`, { enabled: false })).body;
    expect(disabled).toMatchObject({ enabled: false, description: 'second', headerNames: ['X-Token'] });
    const cleared = (
      await api(adminKey, 'PATCH', `/webhooks/${created.id}`, {
        secret: null,
        headers: null,
        bodyTemplate: null,
      })
    ).body;
    expect(cleared).toMatchObject({
      hasSecret: false,
      headerNames: [],
      bodyTemplate: null,
      description: 'second',
    });
  });

  it('checks the transport rule against the result of an update', async () => {
    const created = (await create(adminKey, { url: 'http://example.com/plain' })).body;
    const refused = await api(adminKey, 'PATCH', `/webhooks/${created.id}`, { headers: { 'X-A': '1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0].customCode).toBe('webhookHeadersNeedHttps');
    const both = await api(adminKey, 'PATCH', `/webhooks/${created.id}`, {
      url: 'https://example.com/plain',
      headers: { 'X-A': '1' },
    });
    expect(both.status).toBe(200);
  });

  it('needs the current schema revision when the record trigger changes', async () => {
    const created = (await create(adminKey)).body;
    const deal = (await api(adminKey, 'POST', '/model/read', { type: 'deal' })).body;
    const trigger = { query: { typeId: deal.type.id } };
    const missing = await api(adminKey, 'PATCH', `/webhooks/${created.id}`, { recordTrigger: trigger });
    expect(missing.body.error.issues[0].customCode).toBe('webhookSchemaRevisionRequired');
    const stale = await api(adminKey, 'PATCH', `/webhooks/${created.id}`, {
      recordTrigger: trigger,
      expectedSchemaRevision: deal.schemaRevision + 5,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      kind: 'conflict',
      issues: [{ customCode: 'webhookSchemaRevisionStale' }],
    });
    const saved = await api(adminKey, 'PATCH', `/webhooks/${created.id}`, {
      recordTrigger: trigger,
      expectedSchemaRevision: deal.schemaRevision,
    });
    expect(saved.body.recordTrigger).toEqual(trigger);
    // A description change needs no revision.
    expect((await api(adminKey, 'PATCH', `/webhooks/${created.id}`, { description: 'x' })).status).toBe(200);
  });

  it('lists newest first with paging, search on the URL and date filters', async () => {
    const other = await WebClient.signUp(app.baseUrl, { email: 'lists@example.com' });
    const key = (await other.client.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    for (const name of ['alpha', 'beta', 'gamma'])
      await create(key, { url: `https://${name}.example.com/in` });
    const first = (await api(key, 'GET', '/webhooks?limit=2')).body;
    expect(first.data.map((w: { url: string }) => w.url)).toEqual([
      'https://gamma.example.com/in',
      'https://beta.example.com/in',
    ]);
    const second = (await api(key, 'GET', `/webhooks?limit=2&cursor=${first.nextCursor}`)).body;
    expect(second.data.map((w: { url: string }) => w.url)).toEqual(['https://alpha.example.com/in']);
    expect(second.nextCursor).toBeNull();
    expect((await api(key, 'GET', '/webhooks?search=BETA')).body.data).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await api(key, 'GET', `/webhooks?createdFrom=${today}&updatedTo=${today}`)).body.data,
    ).toHaveLength(3);
    expect((await api(key, 'GET', '/webhooks?createdTo=2000-01-01')).body.data).toHaveLength(0);
  });

  it('answers 404 webhookNotFound for an id that does not exist or belongs to another workspace', async () => {
    const mine = (await create(adminKey)).body;
    const other = await WebClient.signUp(app.baseUrl, { email: 'stranger@example.com' });
    const strangerKey = (await other.client.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    for (const [method, body] of [['GET'], ['PATCH', { description: 'hijack' }], ['DELETE']] as const) {
      for (const id of [mine.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const refused = await api(strangerKey, method, `/webhooks/${id}`, body);
        expect(refused.status).toBe(404);
        expect(refused.body.error).toMatchObject({
          kind: 'not_found',
          issues: [{ customCode: 'webhookNotFound' }],
        });
      }
    }
    const mcp = await connectMcp(app.baseUrl, strangerKey);
    const viaMcp = await mcp.call('manage_webhooks', { action: 'get', id: mine.id });
    expect(viaMcp._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [{ customCode: 'webhookNotFound' }],
    });
    await mcp.client.close();
    expect((await api(adminKey, 'GET', `/webhooks/${mine.id}`)).body.description).toBeNull();
  });

  it('follows each row of the permissions table', async () => {
    const target = (await create(adminKey)).body;
    const expectCode = (result: { status: number; body: any }, status: number) => {
      expect(result.status).toBe(status);
      if (status === 403) expect(result.body.error.issues[0].customCode).toBe('insufficientPermissions');
    };

    const readOnly = await keyWithRole('read@example.com', {});
    expectCode(await api(readOnly, 'GET', '/webhooks'), 200);
    expectCode(await api(readOnly, 'GET', `/webhooks/${target.id}`), 200);
    expectCode(await create(readOnly), 403);
    expectCode(await api(readOnly, 'PATCH', `/webhooks/${target.id}`, { description: 'x' }), 403);
    expectCode(await api(readOnly, 'DELETE', `/webhooks/${target.id}`), 403);

    const creator = await keyWithRole('create@example.com', { apiCreate: true });
    expectCode(await create(creator), 201);
    expectCode(await api(creator, 'PATCH', `/webhooks/${target.id}`, { description: 'x' }), 403);

    const editor = await keyWithRole('edit@example.com', { apiEdit: true });
    expectCode(await api(editor, 'PATCH', `/webhooks/${target.id}`, { description: 'edited' }), 200);
    expectCode(await api(editor, 'DELETE', `/webhooks/${target.id}`), 403);

    const deleter = await keyWithRole('delete@example.com', { apiDelete: true });
    expectCode(await api(deleter, 'DELETE', `/webhooks/${target.id}`), 204);

    const none = await keyWithRole('none@example.com', { apiRead: 'none' });
    expectCode(await api(none, 'GET', '/webhooks'), 403);

    // Only an administrator chooses another record owner.
    const meEditor = (await api(editor, 'GET', '/me')).body.user.id;
    const foreignOwner = await create(creator, { recordOwnerUserId: meEditor });
    expect(foreignOwner.status).toBe(403);
    expect(foreignOwner.body.error.issues[0].customCode).toBe('webhookOwnerNotAllowed');
    const byAdmin = await create(adminKey, {
      events: ['messaging.chat.updated'],
      recordOwnerUserId: meEditor,
    });
    expect(byAdmin.body.recordOwnerUserId).toBe(meEditor);
  });

  it('MCP manage_webhooks lists, gets, updates and deletes, and marks itself destructive', async () => {
    const mcp = await connectMcp(app.baseUrl, adminKey);
    const tool = (await mcp.client.listTools()).tools.find((t) => t.name === 'manage_webhooks')!;
    expect(tool.annotations).toMatchObject({ destructiveHint: true });
    // Its full list of actions is checked once, in test/mcp/webhook-tools.test.ts.
    expect((tool.inputSchema as any).properties.action.enum).toEqual(
      expect.arrayContaining(['list', 'get', 'update', 'delete']),
    );
    const created = (
      await mcp.call('manage_webhooks', {
        action: 'create',
        url: 'https://mcp.example.com',
        events: ['messaging.email.received'],
      })
    ).structuredContent;
    const updated = await mcp.call('manage_webhooks', { action: 'update', id: created.id, enabled: false });
    expect(updated.structuredContent).toMatchObject({ enabled: false });
    const listed = await mcp.call('manage_webhooks', { action: 'list', search: 'mcp.example' });
    expect(listed.structuredContent.data.map((w: { id: string }) => w.id)).toEqual([created.id]);
    const noId = await mcp.call('manage_webhooks', { action: 'delete' });
    expect(noId._meta!.failure).toMatchObject({ kind: 'validation', issues: [{ path: ['id'] }] });
    expect((await mcp.call('manage_webhooks', { action: 'delete', id: created.id })).isError).toBeFalsy();
    expect((await mcp.call('manage_webhooks', { action: 'get', id: created.id }))._meta!.failure.kind).toBe(
      'not_found',
    );
    await mcp.client.close();
  });
});
