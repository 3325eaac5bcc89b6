import { SecretBox } from '../../src/security/secret-box';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { keyCall, memberWithRole, WebClient } from '../helpers/web-client';

/**
 * Issue 27, item 2: secret rotation with a grace period, over REST, MCP and the web app's
 * /app/api, with the permissions of changing the secret, tried from the attacker's side (another
 * workspace's webhook, a role without Edit, an editor of someone else's record webhook): a refused
 * rotation answers the spec's error body and changes nothing. What the deliveries carry during and
 * after the grace is test/receivers/standard-webhooks.test.ts.
 */
describe('rotating a webhook secret', () => {
  let app: TestApp;
  let box: SecretBox;
  let admin: WebClient;
  let adminKey: string;
  let editor: { client: WebClient; key: string; userId: string };
  let viewer: { key: string };
  let outsiderKey: string;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;
  const closeMcp: (() => Promise<void>)[] = [];

  const HOUR = 60 * 60 * 1000;
  const call = (key: string, method: string, path: string, body?: unknown) =>
    keyCall(app.baseUrl, key, method, path, body);
  const rotate = (key: string, id: string, body?: unknown) =>
    call(key, 'POST', `/webhooks/${id}/rotate-secret`, body);
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body?.error?.kind,
    result.body?.error?.issues?.map((issue: { customCode: string }) => issue.customCode),
  ];

  /** A webhook of `key`'s owner (its record owner) with a secret. */
  async function webhookOf(key: string, secret = 'old-secret') {
    const created = await call(key, 'POST', '/webhooks', {
      url: 'https://receiver.example.com/hooks',
      events: ['messaging.message.received'],
      secret,
      standardWebhooks: true,
    });
    expect(created.status).toBe(201);
    return created.body as { id: string };
  }

  /** The stored row, the sealed values opened: what a refused call must leave as it was. */
  async function stored(id: string) {
    const [row] = await app.dataSource.query(
      `SELECT secret_sealed, previous_secret_sealed, previous_secret_expires_at, updated_at
       FROM webhooks WHERE id = $1`,
      [id],
    );
    return {
      secret: row.secret_sealed ? box.open(row.secret_sealed) : null,
      previous: row.previous_secret_sealed ? box.open(row.previous_secret_sealed) : null,
      previousUntil: row.previous_secret_expires_at as Date | null,
      sealed: [row.secret_sealed, row.previous_secret_sealed],
      updatedAt: row.updated_at as Date,
    };
  }

  beforeAll(async () => {
    app = await startTestApp();
    box = new SecretBox(app.config.ENCRYPTION_KEY!);
    admin = (await WebClient.signUp(app.baseUrl, { email: 'owner@example.com' })).client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    editor = await memberWithRole(admin, app.baseUrl, 'editor@example.com', { apiEdit: true });
    // Create (so they have a key) but not Edit.
    viewer = await memberWithRole(admin, app.baseUrl, 'creator@example.com', {});
    const outsider = (await WebClient.signUp(app.baseUrl, { email: 'outsider@example.com' })).client;
    outsiderKey = (await outsider.ok('POST', '/app/api/api-keys', { name: 'outsider' })).value;
    mcp = await connectMcp(app.baseUrl, adminKey);
    closeMcp.push(() => mcp.client.close());
  });
  afterAll(async () => {
    for (const close of closeMcp) await close();
    await app.close();
  });

  it('makes the sent secret current and keeps the old one for 24 hours by default, returning neither', async () => {
    const webhook = await webhookOf(adminKey);
    const before = Date.now();
    const answer = await rotate(adminKey, webhook.id, { secret: 'new-secret' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: webhook.id, hasSecret: true, standardWebhooks: true });
    const until = Date.parse(answer.body.previousSecretExpiresAt);
    expect(until).toBeGreaterThanOrEqual(before + 24 * HOUR);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * HOUR);
    expect(JSON.stringify(answer.body)).not.toMatch(/old-secret|new-secret/);

    const row = await stored(webhook.id);
    expect(row).toMatchObject({ secret: 'new-secret', previous: 'old-secret' });
    expect(row.previousUntil!.getTime()).toBe(until);
    // Sealed like the current one; the dialog's secrets route shows the current one only.
    expect(row.sealed.join(' ')).not.toMatch(/old-secret|new-secret/);
    await expect(admin.ok('GET', `/app/api/webhooks/${webhook.id}/secrets`)).resolves.toEqual({
      secret: 'new-secret',
      headers: null,
    });
    const read = await call(adminKey, 'GET', `/webhooks/${webhook.id}`);
    expect(read.body.previousSecretExpiresAt).toBe(answer.body.previousSecretExpiresAt);
    expect(JSON.stringify(read.body)).not.toContain('old-secret');
  });

  it('generates a secret when none is sent, never returned: the dialog’s route shows it to Edit', async () => {
    const webhook = await webhookOf(adminKey);
    const answer = await rotate(adminKey, webhook.id, { graceHours: 2 });
    expect(answer.status).toBe(200);
    const row = await stored(webhook.id);
    expect(row.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(row.previous).toBe('old-secret');
    expect(JSON.stringify(answer.body)).not.toContain(row.secret);
    expect(Date.parse(answer.body.previousSecretExpiresAt) - Date.now()).toBeLessThanOrEqual(2 * HOUR);
    const { secret } = await admin.ok('GET', `/app/api/webhooks/${webhook.id}/secrets`);
    expect(secret).toBe(row.secret);
    // An empty body, or a null secret, generates too.
    expect((await rotate(adminKey, webhook.id)).status).toBe(200);
    const second = (await stored(webhook.id)).secret;
    expect(second).not.toBe(row.secret);
    expect((await rotate(adminKey, webhook.id, { secret: null })).status).toBe(200);
    expect((await stored(webhook.id)).secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await stored(webhook.id)).secret).not.toBe(second);
  });

  it('keeps nothing with a grace of 0, or when there was no secret', async () => {
    const webhook = await webhookOf(adminKey);
    const answer = await rotate(adminKey, webhook.id, { secret: 'at-once', graceHours: 0 });
    expect(answer.body.previousSecretExpiresAt).toBeNull();
    expect(await stored(webhook.id)).toMatchObject({
      secret: 'at-once',
      previous: null,
      previousUntil: null,
    });

    const unsigned = (await call(adminKey, 'POST', '/webhooks', {
      url: 'https://receiver.example.com/unsigned',
      events: ['messaging.message.received'],
      // Without it, a new webhook gets a generated secret (issue 37, item 4).
      secret: null,
    })) as { body: { id: string } };
    const first = await rotate(adminKey, unsigned.body.id, { secret: 'first-secret' });
    expect(first.body).toMatchObject({ hasSecret: true, previousSecretExpiresAt: null });
    expect(await stored(unsigned.body.id)).toMatchObject({ secret: 'first-secret', previous: null });
  });

  it('keeps only the two latest secrets; a PATCH of the secret ends the grace, the saved value sent again does not', async () => {
    const webhook = await webhookOf(adminKey, 'secret-a');
    await rotate(adminKey, webhook.id, { secret: 'secret-b' });
    await rotate(adminKey, webhook.id, { secret: 'secret-c', graceHours: 1 });
    expect(await stored(webhook.id)).toMatchObject({ secret: 'secret-c', previous: 'secret-b' });

    const same = await call(adminKey, 'PATCH', `/webhooks/${webhook.id}`, { secret: 'secret-c' });
    expect(same.body.previousSecretExpiresAt).not.toBeNull();
    expect(await stored(webhook.id)).toMatchObject({ secret: 'secret-c', previous: 'secret-b' });

    const patched = await call(adminKey, 'PATCH', `/webhooks/${webhook.id}`, { secret: 'secret-d' });
    expect(patched.body.previousSecretExpiresAt).toBeNull();
    expect(await stored(webhook.id)).toMatchObject({
      secret: 'secret-d',
      previous: null,
      previousUntil: null,
    });

    await rotate(adminKey, webhook.id, { secret: 'secret-e' });
    const cleared = await call(adminKey, 'PATCH', `/webhooks/${webhook.id}`, { secret: null });
    expect(cleared.body).toMatchObject({ hasSecret: false, previousSecretExpiresAt: null });
    expect(await stored(webhook.id)).toMatchObject({ secret: null, previous: null });
  });

  it('refuses a bad rotation with the spec’s body and changes nothing', async () => {
    const webhook = await webhookOf(adminKey);
    const before = await stored(webhook.id);
    const cases: [unknown, string, (string | number)[]][] = [
      [{ secret: 'old-secret' }, 'webhookSecretUnchanged', ['secret']],
      [{ secret: '' }, 'webhookSecretEmpty', ['secret']],
      [{ secret: 's'.repeat(257) }, 'webhookSecretTooLong', ['secret']],
      [{ graceHours: 25 }, 'tooLong', ['graceHours']],
      [{ graceHours: -1 }, 'tooShort', ['graceHours']],
      [{ secret: 'x', url: 'https://elsewhere.example.com' }, 'unknownField', []],
    ];
    for (const [body, customCode, path] of cases) {
      const answer = await rotate(adminKey, webhook.id, body);
      expect({ body, refusal: refusal(answer), path: answer.body.error.issues[0].path }).toEqual({
        body,
        refusal: [400, 'validation', [customCode]],
        path,
      });
    }
    // Not a whole number of hours: refused at its path (the customCode of a wrong type is the kit's).
    for (const graceHours of [1.5, '24', null]) {
      const answer = await rotate(adminKey, webhook.id, { graceHours });
      expect([answer.status, answer.body.error.kind, answer.body.error.issues[0].path]).toEqual([
        400,
        'validation',
        ['graceHours'],
      ]);
    }
    expect(await stored(webhook.id)).toEqual(before);
  });

  it('refuses the attacker’s side and changes nothing: another workspace, a role without Edit, someone else’s record webhook', async () => {
    const webhook = await webhookOf(adminKey);
    const before = await stored(webhook.id);
    // Another workspace's key: the webhook does not exist for it, whatever the body.
    expect(refusal(await rotate(outsiderKey, webhook.id, { secret: 'taken-over' }))).toEqual([
      404,
      'not_found',
      ['webhookNotFound'],
    ]);
    // Create without Edit.
    expect(refusal(await rotate(viewer.key, webhook.id, { secret: 'taken-over' }))).toEqual([
      403,
      'authorization',
      ['insufficientPermissions'],
    ]);
    // Edit, but the record owner is the Admin: refused whatever is sent, the saved secret included,
    // so the answer says nothing of it.
    for (const body of [{ secret: 'taken-over' }, { secret: 'old-secret' }, {}]) {
      expect(refusal(await rotate(editor.key, webhook.id, body))).toEqual([
        403,
        'authorization',
        ['webhookOwnedByAnother'],
      ]);
    }
    expect(
      refusal(
        await editor.client.request('POST', `/app/api/webhooks/${webhook.id}/rotate-secret`, {
          secret: 'taken-over',
        }),
      ),
    ).toEqual([403, 'authorization', ['webhookOwnedByAnother']]);
    expect(await stored(webhook.id)).toEqual(before);

    // The editor's own webhook is theirs to rotate.
    const own = await webhookOf(editor.key);
    expect((await rotate(editor.key, own.id, { secret: 'editor-new' })).status).toBe(200);
  });

  it('rotates through MCP (manage_webhooks rotate_secret), with the same refusals', async () => {
    const webhook = await webhookOf(adminKey);
    const result: ToolResult = await mcp.call('manage_webhooks', {
      action: 'rotate_secret',
      id: webhook.id,
      secret: 'mcp-secret',
      graceHours: 3,
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: webhook.id, hasSecret: true });
    expect(JSON.stringify(result)).not.toMatch(/old-secret|mcp-secret/);
    expect(await stored(webhook.id)).toMatchObject({ secret: 'mcp-secret', previous: 'old-secret' });

    const generated = await mcp.call('manage_webhooks', { action: 'rotate_secret', id: webhook.id });
    expect(generated.isError).toBeFalsy();
    const { secret } = await stored(webhook.id);
    expect(JSON.stringify(generated)).not.toContain(secret);

    const outsider = await connectMcp(app.baseUrl, outsiderKey);
    closeMcp.push(() => outsider.client.close());
    const before = await stored(webhook.id);
    const refused = await outsider.call('manage_webhooks', {
      action: 'rotate_secret',
      id: webhook.id,
      secret: 'taken-over',
    });
    expect(refused.isError).toBe(true);
    expect(refused._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [expect.objectContaining({ customCode: 'webhookNotFound' })],
    });
    const tooLong = await mcp.call('manage_webhooks', {
      action: 'rotate_secret',
      id: webhook.id,
      graceHours: 48,
    });
    expect(tooLong._meta!.failure).toMatchObject({ kind: 'validation' });
    expect(await stored(webhook.id)).toEqual(before);
  });

  it('rotates from the web app’s /app/api, and replays an idempotent rotation without rotating again', async () => {
    const webhook = await webhookOf(adminKey);
    const answer = await admin.ok('POST', `/app/api/webhooks/${webhook.id}/rotate-secret`, {
      secret: 'web-secret',
      graceHours: 24,
    });
    expect(answer.previousSecretExpiresAt).not.toBeNull();
    expect(await stored(webhook.id)).toMatchObject({ secret: 'web-secret', previous: 'old-secret' });

    const send = () =>
      fetch(`${app.baseUrl}/api/v1/webhooks/${webhook.id}/rotate-secret`, {
        method: 'POST',
        headers: { 'x-api-key': adminKey, 'content-type': 'application/json', 'idempotency-key': 'rotate-1' },
        body: JSON.stringify({ graceHours: 1 }),
      });
    expect((await send()).status).toBe(200);
    const once = await stored(webhook.id);
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await stored(webhook.id)).toEqual(once);
  });

  it('stops signing with the previous secret when its grace ends, and the sweep drops it', async () => {
    const webhook = await webhookOf(adminKey);
    await rotate(adminKey, webhook.id, { secret: 'next-secret' });
    const ended = new Date(Date.now() - 1000);
    await app.dataSource.query(`UPDATE webhooks SET previous_secret_expires_at = $2 WHERE id = $1`, [
      webhook.id,
      ended,
    ]);
    // Already over before the sweep runs: the view says so.
    expect((await call(adminKey, 'GET', `/webhooks/${webhook.id}`)).body.previousSecretExpiresAt).toBeNull();
    const repository = new WebhooksRepository(app.dataSource.manager, box);
    const row = (await repository.find((await call(adminKey, 'GET', '/me')).body.workspace.id, webhook.id))!;
    expect(repository.sendingSecretsOf(row, new Date()).signing).toEqual(['next-secret']);
    expect(repository.sendingSecretsOf(row, new Date(ended.getTime() - 1)).signing).toEqual([
      'next-secret',
      'old-secret',
    ]);

    const before = await stored(webhook.id);
    const other = await webhookOf(adminKey);
    await rotate(adminKey, other.id, { secret: 'still-in-grace' });
    expect(await repository.dropEndedPreviousSecrets(new Date())).toBeGreaterThanOrEqual(1);
    expect(await stored(webhook.id)).toEqual({
      ...before,
      previous: null,
      previousUntil: null,
      sealed: [before.sealed[0], null],
    });
    expect((await stored(other.id)).previous).toBe('old-secret');
  });
});
