import { Webhook } from '../../src/webhooks/webhook.entity';
import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, rest, WebClient } from '../helpers/web-client';

/**
 * Issue 10, hole 1: a member with Edit, whose role cannot read Amount, tries to re-point a record
 * webhook owned by an Admin (deliveries are redacted with the owner's access). REST, the web
 * app's /app/api and MCP refuse with 403 webhookOwnedByAnother; description edits, unchanged
 * values, the owner, an administrator and ownerless webhooks are still fine.
 */
describe('webhook ownership', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  let adminId: string;
  let member: { key: string; web: WebClient; userId: string };
  let revision: number;
  let dealTypeId: string;

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
  };
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body?.error?.kind,
    result.body?.error?.issues?.[0]?.customCode,
  ];
  const OWNED_BY_ANOTHER = [403, 'authorization', 'webhookOwnedByAnother'];

  /** A record webhook of the Admin (its record owner), with a secret, a header and a template. */
  const adminWebhook = async () => {
    const created = await api(adminKey, 'POST', '/webhooks', {
      url: 'https://crm-sync.example.com/in',
      events: ['record.created', 'record.updated'],
      secret: 'admin-secret',
      headers: { 'X-Token': 'abc' },
      bodyTemplate: '{"e":"{{event}}"}',
      recordTrigger: { query: { typeId: dealTypeId } },
      expectedSchemaRevision: revision,
    });
    expect(created.status).toBe(201);
    return created.body;
  };

  beforeAll(async () => {
    app = await startTestApp();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'admin@example.com', name: 'Ada Admin' });
    admin = signedUp.client;
    adminId = signedUp.session.user.id;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    const model = (await api(adminKey, 'POST', '/model/read', { type: 'deal' })).body;
    revision = model.schemaRevision;
    dealTypeId = model.type.id;
    const amount = model.type.fields.find((f: { name: string }) => f.name === 'Amount').id;
    const role = await admin.ok('POST', '/app/api/roles', {
      name: 'Sales without Amount',
      apiRead: 'all',
      apiCreate: true,
      apiEdit: true,
      apiDelete: true,
      restrictedFieldIds: [amount],
    });
    const web = (
      await addMemberByInvitation(app.baseUrl, admin, { email: 'sam@example.com', roleId: role.id })
    ).client;
    const key = (await web.ok('POST', '/app/api/api-keys', { name: 'sam' })).value as string;
    member = { key, web, userId: (await rest(app.baseUrl, key)).body.user.id };
  });
  afterAll(() => app.close());

  it('refuses record settings that filter on, or watch, a field the record owner cannot read', async () => {
    const model = (await api(member.key, 'POST', '/model/read', { type: 'deal' })).body;
    const amount = model.type.fields.find((f: { name: string }) => f.name === 'Amount').id;
    const before = await app.dataSource.manager.count(Webhook);
    const base = {
      url: 'https://sam.example.com/in',
      events: ['record.updated'],
      expectedSchemaRevision: model.schemaRevision,
    };
    const filtered = await api(member.key, 'POST', '/webhooks', {
      ...base,
      recordTrigger: { query: { typeId: dealTypeId, filters: [{ fieldId: amount, op: 'gt', value: 1000 }] } },
    });
    expect(refusal(filtered)).toEqual([400, 'validation', 'webhookFieldRestricted']);
    expect(filtered.body.error.issues[0].path).toEqual(['recordTrigger', 'query', 'filters', 0, 'fieldId']);
    const watched = await api(member.key, 'POST', '/webhooks', {
      ...base,
      recordSources: [{ query: { typeId: dealTypeId }, changedFieldIds: [amount] }],
    });
    expect(refusal(watched)).toEqual([400, 'validation', 'webhookFieldRestricted']);
    expect(watched.body.error.issues[0].path).toEqual(['recordSources', 0, 'changedFieldIds', 0]);
    expect(await app.dataSource.manager.count(Webhook)).toBe(before);
    // The Admin reads Amount: the same settings are fine for a webhook the Admin owns.
    const allowed = await api(adminKey, 'POST', '/webhooks', {
      ...base,
      recordTrigger: { query: { typeId: dealTypeId, filters: [{ fieldId: amount, op: 'gt', value: 1000 }] } },
    });
    expect(allowed.status).toBe(201);
  });

  it('REST: refuses every change of where or how an Admin-owned webhook sends, and changes nothing', async () => {
    const target = await adminWebhook();
    const attempts: Record<string, unknown>[] = [
      { url: 'https://attacker.example/in' },
      { headers: { 'X-Token': 'mine' } },
      { headers: null },
      { secret: 'attacker-secret' },
      { secret: null },
      { bodyTemplate: '{"all":"{{data}}"}' },
      { recordTrigger: null, expectedSchemaRevision: revision },
      {
        recordSources: [{ query: { typeId: dealTypeId } }],
        recordTrigger: null,
        expectedSchemaRevision: revision,
      },
      { events: ['record.created'] },
      { enabled: false },
      { recordOwnerUserId: member.userId, expectedSchemaRevision: revision },
      { description: 'fine', url: 'https://attacker.example/in' },
    ];
    for (const body of attempts) {
      expect([body, refusal(await api(member.key, 'PATCH', `/webhooks/${target.id}`, body))]).toEqual([
        body,
        OWNED_BY_ANOTHER,
      ]);
    }
    const after = (await api(adminKey, 'GET', `/webhooks/${target.id}`)).body;
    expect(after).toEqual(target);
  });

  it('REST: still lets the member change the description, resend unchanged values, and delete', async () => {
    const target = await adminWebhook();
    const renamed = await api(member.key, 'PATCH', `/webhooks/${target.id}`, { description: 'Sync to ERP' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ description: 'Sync to ERP', url: target.url });
    const same = await api(member.key, 'PATCH', `/webhooks/${target.id}`, {
      url: target.url,
      events: [...target.events].reverse(),
      enabled: true,
      headers: { 'X-Token': 'abc' },
      secret: 'admin-secret',
    });
    expect(same.status).toBe(200);
    expect((await api(member.key, 'DELETE', `/webhooks/${target.id}`)).status).toBe(204);
  });

  it('REST: the owner and an administrator may still edit; an ownerless webhook stays open to Edit', async () => {
    const own = (
      await api(member.key, 'POST', '/webhooks', {
        url: 'https://sam.example.com/in',
        events: ['record.created'],
      })
    ).body;
    expect(own.recordOwnerUserId).toBe(member.userId);
    const moved = await api(member.key, 'PATCH', `/webhooks/${own.id}`, {
      url: 'https://sam.example.com/v2',
    });
    expect(moved.status).toBe(200);
    // An administrator steers a webhook the member owns.
    const byAdmin = await api(adminKey, 'PATCH', `/webhooks/${own.id}`, {
      url: 'https://admin.example.com/in',
    });
    expect(byAdmin.status).toBe(200);
    const target = await adminWebhook();
    expect(
      (await api(adminKey, 'PATCH', `/webhooks/${target.id}`, { url: 'https://admin.example.com/v2' }))
        .status,
    ).toBe(200);

    const legacy = await adminWebhook();
    await app.dataSource.manager.update(Webhook, { id: legacy.id }, { recordOwnerUserId: null });
    const open = await api(member.key, 'PATCH', `/webhooks/${legacy.id}`, { enabled: false });
    expect(open.status).toBe(200);
  });

  it('reports the record owner’s name in the webhook view', async () => {
    const target = await adminWebhook();
    expect(target).toMatchObject({ recordOwnerUserId: adminId, recordOwnerName: 'Ada Admin' });
    const listed = (await api(member.key, 'GET', '/webhooks')).body.data;
    expect(listed.find((w: { id: string }) => w.id === target.id).recordOwnerName).toBe('Ada Admin');
  });

  it('the web app’s /app/api refuses the same way', async () => {
    const target = await adminWebhook();
    const moved = await member.web.request('PATCH', `/app/api/webhooks/${target.id}`, {
      url: 'https://attacker.example/in',
    });
    expect(refusal(moved)).toEqual(OWNED_BY_ANOTHER);
    expect(
      (await member.web.request('PATCH', `/app/api/webhooks/${target.id}`, { description: 'ok' })).status,
    ).toBe(200);
    expect((await api(adminKey, 'GET', `/webhooks/${target.id}`)).body.url).toBe(target.url);
  });

  it('MCP manage_webhooks update refuses the same way', async () => {
    const target = await adminWebhook();
    const mcp = await connectMcp(app.baseUrl, member.key);
    const moved = await mcp.call('manage_webhooks', {
      action: 'update',
      id: target.id,
      url: 'https://attacker.example/in',
    });
    expect(moved.isError).toBe(true);
    expect(moved._meta!.failure).toMatchObject({
      kind: 'authorization',
      issues: [{ customCode: 'webhookOwnedByAnother' }],
    });
    const renamed = await mcp.call('manage_webhooks', { action: 'update', id: target.id, description: 'ok' });
    expect(renamed.isError).toBeFalsy();
    await mcp.client.close();
    const ownerMcp = await connectMcp(app.baseUrl, adminKey);
    const byOwner = await ownerMcp.call('manage_webhooks', {
      action: 'update',
      id: target.id,
      url: 'https://crm-sync.example.com/v2',
    });
    expect(byOwner.structuredContent).toMatchObject({ url: 'https://crm-sync.example.com/v2' });
    await ownerMcp.client.close();
  });
});
