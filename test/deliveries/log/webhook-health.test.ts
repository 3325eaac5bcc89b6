import { randomUUID } from 'node:crypto';
import { loadWebhookHealth } from '../../../src/deliveries/log/webhook-health.repository';
import { insertDeliveryAgo } from '../../helpers/delivery-rows';
import { connectMcp } from '../../helpers/mcp';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebClient } from '../../helpers/web-client';

/**
 * The health of webhooks, counted by PostgreSQL from delivery rows at known times, with the
 * endpoint's state as a worker stored it (a row written here; test/deliveries/engine/endpoint-state.test.ts
 * drives it with real attempts).
 */
describe('webhook health', () => {
  let app: TestApp;
  let workspaceId: string;
  let otherWorkspaceId: string;
  let hook: string;
  let quiet: string;
  let key: string;
  let make: (url: string) => Promise<string>;
  let insert: (workspace: string, webhook: string, status: string, ago: string) => Promise<unknown>;
  const FAILING_SINCE = '2025-03-04T16:20:05.000Z';
  const failing = { state: 'failing', reason: '503 Service Unavailable', since: FAILING_SINCE };

  beforeAll(async () => {
    app = await startTestApp();
    const a = await WebClient.signUp(app.baseUrl, { email: 'health-a@example.com' });
    const b = await WebClient.signUp(app.baseUrl, { email: 'health-b@example.com' });
    workspaceId = a.session.workspace.id;
    key = (await a.client.ok('POST', '/app/api/api-keys', { name: 'health' })).value as string;
    otherWorkspaceId = b.session.workspace.id;
    make = async (url: string) =>
      (await a.client.ok('POST', '/app/api/webhooks', { url, events: ['messaging.chat.updated'] }))
        .id as string;
    hook = await make('https://health.example.com/a');
    quiet = await make('https://health.example.com/quiet');
    insert = (workspace: string, webhook: string, state: string, ago: string) =>
      insertDeliveryAgo(app.dataSource, {
        workspaceId: workspace,
        webhookId: webhook,
        state,
        ago,
        url: 'https://health.example.com/a',
      });
    await insert(workspaceId, hook, 'delivered', '1 hour');
    await insert(workspaceId, hook, 'delivered', '2 hours');
    await insert(workspaceId, hook, 'failed', '3 hours');
    await insert(workspaceId, hook, 'retrying', '4 hours');
    await insert(workspaceId, hook, 'pending', '1 minute');
    await insert(workspaceId, hook, 'failed', '3 days');
    await insert(workspaceId, hook, 'delivered', '3 days');
    await insert(workspaceId, hook, 'failed', '10 days'); // outside both windows
    // Another workspace's rows under the same webhook id are never counted.
    await insert(otherWorkspaceId, hook, 'failed', '1 hour');
    await app.dataSource.query(
      `INSERT INTO endpoint_states (webhook_id, workspace_id, state, reason, since, failures_in_a_row, updated_at)
       VALUES ($1, $2, 'failing', '503 Service Unavailable', $3, 3, now())`,
      [hook, workspaceId, new Date(FAILING_SINCE)],
    );
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts outcomes over 24 h and 7 d and names the last delivery', async () => {
    const health = await loadWebhookHealth(app.dataSource.manager, workspaceId, [hook, quiet]);
    expect(health.get(hook)).toEqual({
      lastDelivery: { status: 'pending', state: 'pending', at: expect.any(String) },
      // Failed is failed for good; the retrying one is apart, and out of the rate until it finishes.
      last24h: { delivered: 2, failed: 1, retrying: 1, inFlight: 1, successRate: 2 / 3 },
      last7d: { delivered: 3, failed: 2, retrying: 1, inFlight: 1, successRate: 3 / 5 },
      endpoint: failing,
    });
    // Never attempted: no state yet.
    expect(health.get(quiet)).toEqual({
      lastDelivery: null,
      last24h: { delivered: 0, failed: 0, retrying: 0, inFlight: 0, successRate: null },
      last7d: { delivered: 0, failed: 0, retrying: 0, inFlight: 0, successRate: null },
      endpoint: null,
    });
  });

  it('names a last delivery that is retrying as such, apart from one that failed for good', async () => {
    const retrying = await make('https://health.example.com/retrying');
    await insert(workspaceId, retrying, 'failed', '2 hours');
    await insert(workspaceId, retrying, 'retrying', '1 minute');
    const health = await loadWebhookHealth(app.dataSource.manager, workspaceId, [retrying]);
    expect(health.get(retrying)).toMatchObject({
      lastDelivery: { status: 'failed', state: 'retrying' },
      last24h: { delivered: 0, failed: 1, retrying: 1, inFlight: 0, successRate: 0 },
    });
  });

  it('sees nothing of a webhook from another workspace', async () => {
    const health = await loadWebhookHealth(app.dataSource.manager, otherWorkspaceId, [hook]);
    expect(health.get(hook)).toMatchObject({
      lastDelivery: { status: 'failed', state: 'failed' },
      last24h: { delivered: 0, failed: 1, retrying: 0, inFlight: 0 },
      // The endpoint's state is its own workspace's, read with the workspace.
      endpoint: null,
    });
    expect((await loadWebhookHealth(app.dataSource.manager, workspaceId, [])).size).toBe(0);
  });

  it('reads no endpoint state for a webhook whose endpoint no worker has stored, whatever its past deliveries', async () => {
    const answered = await make('https://health.example.com/answered');
    const [delivery] = await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status)
       VALUES ($1, $2, $3, 'messaging.chat.updated', 'https://health.example.com/x', 'event', 'delivered')
       RETURNING id`,
      [workspaceId, answered, randomUUID()],
    );
    await app.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code, outcome)
       VALUES ($1, 1, 1, now(), 5, 'https://health.example.com/x', 200, 'delivered')`,
      [delivery.id],
    );
    const health = await loadWebhookHealth(app.dataSource.manager, workspaceId, [answered, quiet]);
    expect(health.get(answered)!.endpoint).toBeNull();
    expect(health.get(quiet)!.endpoint).toBeNull();
  });

  it('is part of every webhook read over REST (get and list), and over MCP through the same service', async () => {
    const read = async (path: string): Promise<any> =>
      (await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { 'x-api-key': key } })).json();
    const one = await read(`/webhooks/${hook}`);
    expect(one.health).toMatchObject({
      lastDelivery: { status: 'pending', state: 'pending' },
      last24h: { delivered: 2, failed: 1, retrying: 1, inFlight: 1 },
      last7d: { delivered: 3, failed: 2, retrying: 1, inFlight: 1 },
      endpoint: failing,
    });
    const list = await read('/webhooks');
    const byId = new Map(
      list.data.map((webhook: { id: string; health: unknown }) => [webhook.id, webhook.health]),
    );
    expect(byId.get(hook)).toEqual(one.health);
    expect(byId.get(quiet)).toMatchObject({
      lastDelivery: null,
      last24h: { successRate: null },
      endpoint: null,
    });

    const mcp = await connectMcp(app.baseUrl, key);
    const reader = await connectMcp(app.baseUrl, key, { readOnly: true });
    try {
      // Listing the tools first makes the SDK check each answer against its tool's outputSchema.
      await mcp.client.listTools();
      await reader.client.listTools();
      const got = await mcp.call('manage_webhooks', { action: 'get', id: hook });
      expect(got.isError).toBeFalsy();
      expect(got.structuredContent.health).toEqual(one.health);
      const listed = await reader.call('list_webhooks', {});
      const mcpById = new Map(
        listed.structuredContent.data.map((webhook: { id: string; health: unknown }) => [
          webhook.id,
          webhook.health,
        ]),
      );
      expect(mcpById.get(hook)).toEqual(one.health);
    } finally {
      await mcp.client.close();
      await reader.client.close();
    }
  });
});
