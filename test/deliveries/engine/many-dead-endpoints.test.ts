import { startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

const DEAD_ENDPOINTS = 10;
const WRITES = 6;
/** Two seconds of DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE (2): what a workspace may have waiting. */
const QUEUED_PER_WORKSPACE = 4;
const FAST_PER_WORKSPACE = 10;
const SLOW_SLOTS = 2;

/**
 * A workspace with many endpoints that never answer gets no more of its deliveries started to wait
 * in the slow lane than one with one endpoint: the slow lane takes a workspace's attempts at its
 * rate, however many endpoints they are for, and every started workflow costs Temporal and the
 * worker as much as a delivered one. The real Temporal dev server, real HTTP on loopback, the lanes
 * made small: the fast lane takes one attempt per endpoint, ten per workspace.
 */
describe('delivery capacity: many dead endpoints of one workspace', () => {
  let stack: CapacityStack;
  let a: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startCapacityStack({
      DELIVERY_FAST_LANE_SLOTS: '20',
      DELIVERY_FAST_LANE_PER_WORKSPACE: String(FAST_PER_WORKSPACE),
      DELIVERY_FAST_LANE_PER_ENDPOINT: '1',
      DELIVERY_SLOW_LANE_SLOTS: String(SLOW_SLOTS),
      DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE: '2',
      API_CONCURRENCY_PER_WORKSPACE: '20',
    });
    ({ a, receiver } = stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('holds them in PostgreSQL and lets the workspace have only its share waiting in the slow lane', async () => {
    const hooks: { id: string }[] = [];
    for (let i = 0; i < DEAD_ENDPOINTS; i++) {
      // Never answers within the 5 s request timeout.
      receiver.replies(`/dead/${i}`, { status: 200, delayMs: 60_000 });
      hooks.push(await a.webhook(`${receiver.url}/dead/${i}`));
    }
    const ids = hooks.map((hook) => hook.id);
    for (let i = 0; i < WRITES; i++) await a.createDeal(`To ten dead endpoints ${i}`);
    // The first delivery of each endpoint hangs in the fast lane; its timeout (5 s) marks the endpoint.
    await eventually(async () => {
      const [{ unhealthy }] = await a.app.dataSource.query(
        `SELECT count(*)::int AS unhealthy FROM endpoint_states WHERE webhook_id = ANY($1) AND state <> 'healthy'`,
        [ids],
      );
      return unhealthy === DEAD_ENDPOINTS;
    }, 'every endpoint degraded');

    // Until their retries come (10 s after the timeouts) nothing but the release starts more. The
    // release starts the held ones only once their endpoint is unhealthy, and a slow-lane attempt
    // runs 5 s into its timeout: before the first endpoint's `since` + 5 s, no attempt the release
    // started can have ended, so what was started then is what the workspace had at once.
    const [{ firstUnhealthy }] = await a.app.dataSource.query(
      `SELECT (extract(epoch FROM min(since)) * 1000)::float8 AS "firstUnhealthy"
         FROM endpoint_states WHERE webhook_id = ANY($1)`,
      [ids],
    );
    const noReleasedAttemptEnded = firstUnhealthy + 5000 - 250;
    const counts = async () =>
      (
        await a.app.dataSource.query(
          `SELECT count(*)::int AS total,
                  count(*) FILTER (WHERE workflow_started_at IS NOT NULL)::int AS started,
                  count(*) FILTER (WHERE workflow_started_at IS NULL AND waiting_since IS NOT NULL)::int AS held,
                  count(*) FILTER (WHERE workflow_started_at IS NOT NULL AND waiting_since IS NOT NULL)::int AS queued,
                  count(*) FILTER (WHERE EXISTS (SELECT 1 FROM delivery_attempts t
                                                  WHERE t.delivery_id = d.id AND t.outcome = 'sending'))::int AS sending
             FROM deliveries d WHERE webhook_id = ANY($1)`,
          [ids],
        )
      )[0] as { total: number; started: number; held: number; queued: number; sending: number };
    let mostQueued = 0;
    let mostActive = 0;
    let mostStartedEarly = 0;
    let last = await counts();
    for (const until = Date.now() + 3000; Date.now() < until;) {
      const before = Date.now();
      last = await counts();
      mostQueued = Math.max(mostQueued, last.queued);
      // Every first attempt has timed out by now: what is in flight or queued is what the release let in.
      mostActive = Math.max(mostActive, last.queued + last.sending);
      if (before < noReleasedAttemptEnded) mostStartedEarly = Math.max(mostStartedEarly, last.started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // Released, but only the workspace's share: not one share per endpoint (which was ten times it).
    expect(mostQueued).toBeGreaterThan(0);
    expect(mostQueued).toBeLessThanOrEqual(QUEUED_PER_WORKSPACE);
    expect(mostActive).toBeLessThanOrEqual(SLOW_SLOTS + QUEUED_PER_WORKSPACE);
    // Started: the fast lane's first attempts, what the slow lane took and what waits for it.
    expect(mostStartedEarly).toBeLessThanOrEqual(FAST_PER_WORKSPACE + SLOW_SLOTS + QUEUED_PER_WORKSPACE);
    // Nothing lost: every delivery exists, the rest held in PostgreSQL (Pending) for later passes.
    expect(last.total).toBe(DEAD_ENDPOINTS * WRITES);
    expect(last.held).toBe(last.total - last.started);
    const pending: { status: string }[] = await a.app.dataSource.query(
      `SELECT DISTINCT status FROM deliveries WHERE webhook_id = ANY($1) AND workflow_started_at IS NULL`,
      [ids],
    );
    expect(pending).toEqual([{ status: 'pending' }]);
  }, 60_000);
});
