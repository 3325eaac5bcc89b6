import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { connectMcp, type ToolResult } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { WebClient } from '../../helpers/web-client';

type Endpoint = { state: string; reason: string | null; since: string } | null;

/**
 * Issue 23, item 3: an endpoint's state for its owner (healthy, degraded or failing, why and since
 * when), driven by real attempts — the worker on the time-skipping server, receivers on loopback —
 * and read as the owner reads it: REST (get, list, update) and MCP through the SDK client. Time
 * skips only while a test awaits a delivery's end (fx.finish), so the state a first attempt left
 * can be read before the retries run.
 */
describe('the endpoint’s state in a webhook’s health, from real attempts', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  const EVENT = 'messaging.chat.updated';
  /** The webhooks each test leaves in a known state, for the reads over MCP and from elsewhere. */
  const hooks: Record<'down' | 'hangs' | 'fine' | 'fresh', string> = {
    down: '',
    hangs: '',
    fine: '',
    fresh: '',
  };

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await fx?.close();
  });

  /** A webhook on its own receiver path: every test's deliveries reach only its own webhook. */
  const webhookOn = async (
    path: string,
    ...replies: { status: number; statusText?: string; delayMs?: number }[]
  ) => {
    receiver.replies(`/${path}`, ...replies);
    return fx.webhook(`${receiver.url}/${path}`, { events: [EVENT] });
  };
  /** A sample event to this webhook only ("Send test event"): the same workflow and lanes as any delivery. */
  const sendSample = async (webhookId: string): Promise<string> => {
    const sent = await fx.api('POST', `/webhooks/${webhookId}/test`, { event: EVENT });
    expect(sent.status).toBe(201);
    return sent.body.id as string;
  };
  const requestsTo = (path: string) => receiver.received.filter((request) => request.path === `/${path}`);
  const endpointOf = async (webhookId: string): Promise<Endpoint> => {
    const read = await fx.api('GET', `/webhooks/${webhookId}`);
    expect(read.status).toBe(200);
    return read.body.health.endpoint;
  };
  /** The endpoint as REST reads it, once `check` holds. */
  const endpointOnce = async (webhookId: string, check: (endpoint: Endpoint) => boolean, what: string) => {
    let seen: Endpoint = null;
    await eventually(async () => check((seen = await endpointOf(webhookId))), what);
    return seen!;
  };

  it('a receiver answering 503: degraded after its first attempt, failing after three in a row, with why and since when', async () => {
    const webhook = await webhookOn('down', { status: 503, statusText: 'Service Unavailable' });
    hooks.down = webhook.id;
    // Created: nothing attempted yet.
    expect(webhook.health.endpoint).toBeNull();
    const sentAt = Date.now();
    const deliveryId = await sendSample(webhook.id);

    const degraded = await endpointOnce(
      webhook.id,
      (endpoint) => endpoint?.state === 'degraded',
      'the first attempt',
    );
    expect(requestsTo('down')).toHaveLength(1);
    expect(degraded).toEqual({
      state: 'degraded',
      reason: '503 Service Unavailable',
      since: expect.any(String),
    });
    expect(Date.parse(degraded!.since)).toBeGreaterThanOrEqual(sentAt);
    expect(Date.parse(degraded!.since)).toBeLessThanOrEqual(Date.now());

    // Its retries: the third 503 in a row makes it failing, and the seven after it keep it so.
    await expect(fx.finish(deliveryId)).resolves.toEqual({ status: 'failed', attempts: 10 });
    expect(requestsTo('down')).toHaveLength(10);
    const failing = await endpointOf(webhook.id);
    expect(failing).toEqual({
      state: 'failing',
      reason: '503 Service Unavailable',
      since: expect.any(String),
    });
    expect(Date.parse(failing!.since)).toBeGreaterThan(Date.parse(degraded!.since));
    expect(Date.parse(failing!.since)).toBeLessThanOrEqual(Date.now());

    // Every REST answer with the webhook carries it: the list, and an update's answer.
    const listed = (await fx.api('GET', '/webhooks')).body.data.find(
      (candidate: { id: string }) => candidate.id === webhook.id,
    );
    expect(listed.health.endpoint).toEqual(failing);
    const updated = await fx.api('PATCH', `/webhooks/${webhook.id}`, { description: 'Down for now' });
    expect(updated.status).toBe(200);
    expect(updated.body.health.endpoint).toEqual(failing);
  });

  it('a receiver that does not answer: healthy while it waits (slow is not broken), degraded with the timeout; healthy once one delivers', async () => {
    const webhook = await webhookOn('hangs', { status: 200, delayMs: 6_000 }, { status: 200 });
    hooks.hangs = webhook.id;
    const firstAt = Date.now();
    const deliveryId = await sendSample(webhook.id);

    // Two seconds into an attempt with no answer yet, the endpoint is not held against it: a
    // receiver answering in 4.9 s is healthy (test below). The state it had stays (none yet).
    await eventually(async () => requestsTo('hangs').length === 1, 'the first attempt sent');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await endpointOf(webhook.id)).toBeNull();
    const timedOut = await endpointOnce(
      webhook.id,
      (endpoint) => endpoint?.state === 'degraded',
      'the attempt timed out',
    );
    expect(timedOut).toEqual({
      state: 'degraded',
      reason: 'Timed out: no response within 5 s',
      since: expect.any(String),
    });
    expect(Date.parse(timedOut!.since)).toBeGreaterThanOrEqual(firstAt + 5000);

    // The retry answers at once: healthy again, no reason, since the retry.
    await expect(fx.finish(deliveryId)).resolves.toEqual({ status: 'delivered', attempts: 2 });
    const healthy = await endpointOf(webhook.id);
    expect(healthy).toEqual({ state: 'healthy', reason: null, since: expect.any(String) });
    expect(Date.parse(healthy!.since)).toBeGreaterThan(Date.parse(timedOut!.since));
  });

  it('a receiver that answers well but slowly (2.5 s, inside the 5 s timeout): healthy, no reason', async () => {
    const webhook = await webhookOn('slow', { status: 204, delayMs: 2_500 });
    const deliveryId = await sendSample(webhook.id);
    await expect(fx.finish(deliveryId)).resolves.toEqual({ status: 'delivered', attempts: 1 });
    expect(await endpointOf(webhook.id)).toEqual({
      state: 'healthy',
      reason: null,
      since: expect.any(String),
    });
    const [attempt] = await fx.app.dataSource.query(
      `SELECT duration_ms FROM delivery_attempts WHERE delivery_id = $1`,
      [deliveryId],
    );
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(2_500);
  });

  it('a receiver that answers at once: healthy, no reason; a webhook never attempted: null', async () => {
    const webhook = await webhookOn('fine', { status: 200 });
    hooks.fine = webhook.id;
    const deliveryId = await sendSample(webhook.id);
    await expect(fx.finish(deliveryId)).resolves.toEqual({
      status: 'delivered',
      attempts: 1,
    });
    // The first state a worker learns of an endpoint is stored, healthy too: since its first attempt.
    const [attempt] = await fx.app.dataSource.query(
      `SELECT started_at FROM delivery_attempts WHERE delivery_id = $1`,
      [deliveryId],
    );
    const endpoint = await endpointOf(webhook.id);
    expect(endpoint).toEqual({ state: 'healthy', reason: null, since: expect.any(String) });
    expect(Date.parse(endpoint!.since)).toBeGreaterThanOrEqual(attempt.started_at.getTime());

    hooks.fresh = (await webhookOn('fresh')).id;
    expect(await endpointOf(hooks.fresh)).toBeNull();
    const listed = (await fx.api('GET', '/webhooks')).body.data;
    const byId = new Map(
      listed.map((hook: { id: string; health: { endpoint: Endpoint } }) => [hook.id, hook.health.endpoint]),
    );
    expect(byId.get(hooks.fresh)).toBeNull();
    expect(byId.get(hooks.fine)).toMatchObject({ state: 'healthy' });
  });

  it('MCP manage_webhooks and the read-only tools answer the same states (checked against their outputSchema)', async () => {
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    const reader = await connectMcp(fx.app.baseUrl, fx.key, { readOnly: true });
    try {
      // Listing the tools first makes the SDK check each answer against its tool's outputSchema.
      await mcp.client.listTools();
      await reader.client.listTools();
      const expected = {
        [hooks.down]: { state: 'failing', reason: '503 Service Unavailable' },
        [hooks.hangs]: { state: 'healthy', reason: null },
        [hooks.fine]: { state: 'healthy', reason: null },
      };
      for (const [id, state] of Object.entries(expected)) {
        const rest = await endpointOf(id);
        expect(rest).toMatchObject(state);
        const got = await mcp.call('manage_webhooks', { action: 'get', id });
        expect(got.isError).toBeFalsy();
        expect(got.structuredContent.health.endpoint).toEqual(rest);
        expect((await reader.call('get_webhook', { id })).structuredContent.health.endpoint).toEqual(rest);
      }
      expect(
        (await mcp.call('manage_webhooks', { action: 'get', id: hooks.fresh })).structuredContent.health
          .endpoint,
      ).toBeNull();

      const listed = await mcp.call('manage_webhooks', { action: 'list' });
      const byId = new Map(
        listed.structuredContent.data.map((hook: { id: string; health: { endpoint: Endpoint } }) => [
          hook.id,
          hook.health.endpoint,
        ]),
      );
      expect(byId.get(hooks.down)).toMatchObject({ state: 'failing', reason: '503 Service Unavailable' });
      expect(byId.get(hooks.fresh)).toBeNull();
      const updated = await mcp.call('manage_webhooks', { action: 'update', id: hooks.down, enabled: true });
      expect(updated.structuredContent.health.endpoint).toEqual(await endpointOf(hooks.down));
    } finally {
      await mcp.client.close();
      await reader.client.close();
    }
  });

  it('is read only by its own workspace: another workspace’s key gets 404 over REST and not_found over MCP', async () => {
    const stranger = await WebClient.signUp(fx.app.baseUrl, { email: 'endpoint-stranger@example.com' });
    const strangerKey = (await stranger.client.ok('POST', '/app/api/api-keys', { name: 'k' }))
      .value as string;
    const read = await fx.api('GET', `/webhooks/${hooks.down}`, undefined, strangerKey);
    expect(read.status).toBe(404);
    expect(read.body.error.issues[0].customCode).toBe('webhookNotFound');
    expect(JSON.stringify(read.body)).not.toContain('503');
    expect((await fx.api('GET', '/webhooks', undefined, strangerKey)).body.data).toEqual([]);

    const theirs = await connectMcp(fx.app.baseUrl, strangerKey);
    try {
      await theirs.client.listTools();
      const got: ToolResult = await theirs.call('manage_webhooks', { action: 'get', id: hooks.down });
      expect(got.isError).toBe(true);
      expect(got._meta!.failure).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'webhookNotFound' }],
      });
      expect(got.content.map((part) => part.text).join(' ')).not.toContain('503');
    } finally {
      await theirs.client.close();
    }
  });
});
