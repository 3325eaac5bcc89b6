import { crashAfterCommitOf } from '../http/crash-window';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, rest, WebClient } from '../helpers/web-client';

/**
 * Issue 10, holes 3 and 4 over MCP: write tools take `idempotencyKey`
 * (docs/api.md#idempotent-writes: "Resend a write with the same idempotencyKey"), scoped by
 * workspace, key owner and tool+action, answered from an answer that commits with the write.
 */
describe('MCP idempotent writes', () => {
  let app: TestApp;
  let inA: Awaited<ReturnType<typeof connectMcp>>;
  let inB: Awaited<ReturnType<typeof connectMcp>>;
  let workspaceA: string;

  const webhooksOf = async (workspaceId: string) =>
    (
      (await app.dataSource.query(`SELECT id FROM webhooks WHERE workspace_id = $1 ORDER BY created_at`, [
        workspaceId,
      ])) as { id: string }[]
    ).map((row) => row.id);
  const hook = (path: string) => ({
    action: 'create',
    url: `https://example.com/${path}`,
    // Not a record event: record subscriptions over MCP also need expectedSchemaRevision.
    events: ['messaging.message.received'],
  });

  beforeAll(async () => {
    app = await startTestApp();
    const person = await WebClient.signUp(app.baseUrl, { email: 'mcp-two@example.com', workspaceName: 'A' });
    const host = await WebClient.signUp(app.baseUrl, { email: 'mcp-host@example.com', workspaceName: 'B' });
    const adminRole = (await host.client.ok('GET', '/app/api/roles')).data.find(
      (role: { name: string }) => role.name === 'Admin',
    );
    const keyA = (await person.client.ok('POST', '/app/api/api-keys', { name: 'in A' })).value;
    // Accepting the invitation while signed in switches the person's session to B.
    await addMemberByInvitation(app.baseUrl, host.client, {
      email: 'mcp-two@example.com',
      roleId: adminRole.id,
      signedIn: person.client,
    });
    await person.client.ok('POST', '/app/api/session/workspace', { workspaceId: host.session.workspace.id });
    const keyB = (await person.client.ok('POST', '/app/api/api-keys', { name: 'in B' })).value;
    workspaceA = (await rest(app.baseUrl, keyA)).body.workspace.id;
    inA = await connectMcp(app.baseUrl, keyA);
    inB = await connectMcp(app.baseUrl, keyB);
  });
  afterAll(async () => {
    await inA?.client.close();
    await inB?.client.close();
    await app.close();
  });

  it('advertises idempotencyKey on the write tools', async () => {
    const { tools } = await inA.client.listTools();
    for (const name of ['manage_webhooks', 'create_record', 'update_record']) {
      const schema = tools.find((tool) => tool.name === name)!.inputSchema as any;
      expect(Object.keys(schema.properties)).toContain('idempotencyKey');
    }
  });

  it('replays a repeated create, refuses the key for other arguments, and keeps workspaces apart', async () => {
    const fromB = await inB.call('manage_webhooks', { ...hook('mcp-scope'), idempotencyKey: 'mcp-1' });
    expect(fromB.isError).toBeFalsy();
    const first = await inA.call('manage_webhooks', { ...hook('mcp-scope'), idempotencyKey: 'mcp-1' });
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent.id).not.toBe(fromB.structuredContent.id);
    const again = await inA.call('manage_webhooks', { ...hook('mcp-scope'), idempotencyKey: 'mcp-1' });
    expect(again).toEqual(first);
    expect(await webhooksOf(workspaceA)).toEqual([first.structuredContent.id]);

    const other = await inA.call('manage_webhooks', { ...hook('mcp-other'), idempotencyKey: 'mcp-1' });
    expect(other.isError).toBe(true);
    expect(other._meta?.failure.kind).toBe('conflict');
    expect(other._meta?.failure.issues[0].customCode).toBe('idempotencyKeyReused');
  });

  it('replays update and delete, and keys the action into the scope', async () => {
    const created = (await inA.call('manage_webhooks', { ...hook('mcp-del'), idempotencyKey: 'mcp-2' }))
      .structuredContent.id;
    const update = { action: 'update', id: created, description: 'once', idempotencyKey: 'mcp-2' };
    const updated = await inA.call('manage_webhooks', update);
    expect(updated.structuredContent.description).toBe('once');
    expect(await inA.call('manage_webhooks', update)).toEqual(updated);

    const remove = { action: 'delete', id: created, idempotencyKey: 'mcp-3' };
    const deleted = await inA.call('manage_webhooks', remove);
    expect(deleted.isError).toBeFalsy();
    // Without the stored answer the second delete would say webhookNotFound.
    expect(await inA.call('manage_webhooks', remove)).toEqual(deleted);
  });

  it('create_record and update_record take the key and write once', async () => {
    const model = (await inA.call('get_record_model', { type: 'deal' })).structuredContent.types[0];
    const name = model.fields.find((f: { name: string }) => f.name === 'Name').id;
    const args = { type: 'deal', values: { [name]: 'Once only' }, idempotencyKey: 'rec-1' };
    const first = await inA.call('create_record', args);
    expect(first.isError).toBeFalsy();
    expect(await inA.call('create_record', args)).toEqual(first);
    const rows = await app.dataSource.query(`SELECT id FROM records WHERE workspace_id = $1`, [workspaceA]);
    expect(rows).toHaveLength(1);
    expect(first.content[0]!.text).toContain(rows[0].id);

    const update = {
      type: 'deal',
      recordId: rows[0].id,
      values: { [name]: 'Twice' },
      idempotencyKey: 'rec-2',
    };
    const updated = await inA.call('update_record', update);
    expect(updated.isError).toBeFalsy();
    expect(await inA.call('update_record', update)).toEqual(updated);
    const [{ version }] = await app.dataSource.query(`SELECT version FROM records WHERE id = $1`, [
      rows[0].id,
    ]);
    expect(version).toBe(2);
  });

  it('answers a retry after a crash right after the commit with the created webhook', async () => {
    const before = await webhooksOf(workspaceA);
    const crash = crashAfterCommitOf(app.dataSource, 'webhooks');
    let first: ToolResult | Error;
    try {
      first = await inA
        .call('manage_webhooks', { ...hook('mcp-crash'), idempotencyKey: 'mcp-crash' })
        .catch((e) => e);
    } finally {
      await crash.restore();
    }
    expect(crash.fired()).toBe(true);
    expect(first).toBeDefined();
    const created = (await webhooksOf(workspaceA)).filter((id) => !before.includes(id));
    expect(created).toHaveLength(1);
    const retry = await inA.call('manage_webhooks', { ...hook('mcp-crash'), idempotencyKey: 'mcp-crash' });
    expect(retry.isError).toBeFalsy();
    expect(retry.structuredContent.id).toBe(created[0]);
    expect((await webhooksOf(workspaceA)).filter((id) => !before.includes(id))).toEqual(created);
  });
});
