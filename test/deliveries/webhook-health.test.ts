import { randomUUID } from 'node:crypto';
import { loadWebhookHealth } from '../../src/deliveries/webhook-health.repository';
import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/** The health of webhooks, counted by PostgreSQL from delivery rows at known times. */
describe('webhook health', () => {
  let app: TestApp;
  let workspaceId: string;
  let otherWorkspaceId: string;
  let hook: string;
  let quiet: string;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp();
    const a = await WebClient.signUp(app.baseUrl, { email: 'health-a@example.com' });
    const b = await WebClient.signUp(app.baseUrl, { email: 'health-b@example.com' });
    workspaceId = a.session.workspace.id;
    key = (await a.client.ok('POST', '/app/api/api-keys', { name: 'health' })).value as string;
    otherWorkspaceId = b.session.workspace.id;
    const make = async (url: string) =>
      (await a.client.ok('POST', '/app/api/webhooks', { url, events: ['messaging.chat.updated'] }))
        .id as string;
    hook = await make('https://health.example.com/a');
    quiet = await make('https://health.example.com/quiet');
    const insert = (workspace: string, webhook: string, status: string, ago: string) =>
      app.dataSource.query(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, created_at, updated_at)
         VALUES ($1, $2, $3, 'messaging.chat.updated', 'https://health.example.com/a', 'event', $4,
                 now() - $5::interval, now() - $5::interval)`,
        [workspace, webhook, randomUUID(), status, ago],
      );
    await insert(workspaceId, hook, 'delivered', '1 hour');
    await insert(workspaceId, hook, 'delivered', '2 hours');
    await insert(workspaceId, hook, 'failed', '3 hours');
    await insert(workspaceId, hook, 'pending', '1 minute');
    await insert(workspaceId, hook, 'failed', '3 days');
    await insert(workspaceId, hook, 'delivered', '3 days');
    await insert(workspaceId, hook, 'failed', '10 days'); // outside both windows
    // Another workspace's rows under the same webhook id are never counted.
    await insert(otherWorkspaceId, hook, 'failed', '1 hour');
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts outcomes over 24 h and 7 d and names the last delivery', async () => {
    const health = await loadWebhookHealth(app.dataSource.manager, workspaceId, [hook, quiet]);
    expect(health.get(hook)).toEqual({
      lastDelivery: { status: 'pending', at: expect.any(String) },
      last24h: { delivered: 2, failed: 1, inFlight: 1, successRate: 2 / 3 },
      last7d: { delivered: 3, failed: 2, inFlight: 1, successRate: 3 / 5 },
    });
    expect(health.get(quiet)).toEqual({
      lastDelivery: null,
      last24h: { delivered: 0, failed: 0, inFlight: 0, successRate: null },
      last7d: { delivered: 0, failed: 0, inFlight: 0, successRate: null },
    });
  });

  it('sees nothing of a webhook from another workspace', async () => {
    const health = await loadWebhookHealth(app.dataSource.manager, otherWorkspaceId, [hook]);
    expect(health.get(hook)).toMatchObject({
      lastDelivery: { status: 'failed' },
      last24h: { delivered: 0, failed: 1, inFlight: 0 },
    });
    expect((await loadWebhookHealth(app.dataSource.manager, workspaceId, [])).size).toBe(0);
  });

  it('is part of every webhook read over REST (get and list), and over MCP through the same service', async () => {
    const read = async (path: string): Promise<any> =>
      (await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { 'x-api-key': key } })).json();
    const one = await read(`/webhooks/${hook}`);
    expect(one.health).toMatchObject({
      lastDelivery: { status: 'pending' },
      last24h: { delivered: 2, failed: 1, inFlight: 1 },
      last7d: { delivered: 3, failed: 2, inFlight: 1 },
    });
    const list = await read('/webhooks');
    const byId = new Map(
      list.data.map((webhook: { id: string; health: unknown }) => [webhook.id, webhook.health]),
    );
    expect(byId.get(hook)).toEqual(one.health);
    expect(byId.get(quiet)).toMatchObject({ lastDelivery: null, last24h: { successRate: null } });

    const mcp = await connectMcp(app.baseUrl, key);
    try {
      // Listing the tools first makes the SDK check each answer against its tool's outputSchema.
      await mcp.client.listTools();
      const got = await mcp.call('manage_webhooks', { action: 'get', id: hook });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent.health).toEqual(one.health);
      const listed = await mcp.call('list_webhooks', {});
      const mcpById = new Map(
        listed.structuredContent.data.map((webhook: { id: string; health: unknown }) => [
          webhook.id,
          webhook.health,
        ]),
      );
      expect(mcpById.get(hook)).toEqual(one.health);
    } finally {
      await mcp.client.close();
    }
  });
});
