import { secondTenant, startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

const WRITES = 40;
const ANSWER_MS = 1500;
const INITIAL_WINDOW = 2;
const WINDOW_CEILING = 16;
const PROBES_PER_WORKSPACE = 4;

/**
 * Issue 33, item 2: a receiver that answers well but slowly is not a broken one. Its window of
 * attempts in flight grows with its answers (src/shared/deliveries/endpoint-window.ts), past what
 * an endpoint never heard from gets and past the workspace's share for those, up to the ceiling; it
 * stays healthy and its attempts stay in the fast lane. The real Temporal dev server, real HTTP on
 * loopback, the lanes made small.
 */
describe('delivery capacity: a slow but healthy receiver keeps up', () => {
  let stack: CapacityStack;
  let a: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startCapacityStack({
      DELIVERY_FAST_LANE_PER_ENDPOINT: String(INITIAL_WINDOW),
      DELIVERY_ENDPOINT_MAX_IN_FLIGHT: String(WINDOW_CEILING),
      DELIVERY_FAST_LANE_PER_WORKSPACE: String(PROBES_PER_WORKSPACE),
      DELIVERY_SLOW_LANE_SLOTS: '2',
      API_CONCURRENCY_PER_WORKSPACE: '20',
    });
    ({ a, receiver } = stack);
    receiver.replies('/slow', { status: 204, delayMs: ANSWER_MS });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('gets as many attempts in flight as its answers allow, up to the ceiling, all in the fast lane', async () => {
    const slow = await a.webhook(`${receiver.url}/slow`);
    const b = await secondTenant(stack, 'slow-neighbour@example.com');

    await Promise.all(Array.from({ length: WRITES }, (_, i) => a.createDeal(`Slow ${i}`)));
    // Another workspace's delivery meanwhile arrives without waiting for A's backlog.
    expect((await b.createDeal('Meanwhile in B')).status).toBe(201);
    await eventually(
      async () => receiver.received.some((r) => r.path === '/b'),
      "B's delivery, before A's backlog is through",
      10_000,
    );
    expect(receiver.received.filter((r) => r.path === '/slow').length).toBeLessThan(WRITES);

    await eventually(
      async () => {
        const [row] = await a.app.dataSource.query(
          `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered FROM deliveries WHERE webhook_id = $1`,
          [slow.id],
        );
        return row.delivered === WRITES;
      },
      `all ${WRITES} delivered`,
      90_000,
    );
    // The window grew past the first one and past the workspace's share for unproven endpoints,
    // never past the ceiling (before windows, a slow answer sent the endpoint to the slow lane: at
    // most INITIAL_WINDOW + the slow lane's 2 at once).
    expect(receiver.mostAtOnce('/slow')).toBeGreaterThan(2 * PROBES_PER_WORKSPACE);
    expect(receiver.mostAtOnce('/slow')).toBeLessThanOrEqual(WINDOW_CEILING);
    // Every delivery took one attempt, none waited in the slow lane, and the endpoint is healthy.
    const attempts: { attempts: number; lane_waits: number }[] = await a.app.dataSource.query(
      `SELECT max(attempts)::int AS attempts, count(*) FILTER (WHERE waiting_since IS NOT NULL AND workflow_started_at IS NOT NULL)::int AS lane_waits
         FROM deliveries WHERE webhook_id = $1`,
      [slow.id],
    );
    expect(attempts[0]).toEqual({ attempts: 1, lane_waits: 0 });
    const read = await a.api('GET', `/webhooks/${slow.id}`);
    expect(read.body.health.endpoint).toMatchObject({ state: 'healthy', reason: null });
    const metrics = await a.app.metrics.metrics();
    expect(metrics).not.toMatch(/webhook_lane_deferred_total\{[^}]*reason="endpoint-unhealthy"\}/);
    expect(metrics).toMatch(/webhook_attempts_total\{lane="fast",workspace="[^"]+",result="delivered"\} 4\d/);
  }, 150_000);
});
