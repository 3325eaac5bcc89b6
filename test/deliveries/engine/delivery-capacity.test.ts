import { WorkflowNotFoundError } from '@temporalio/client';
import { deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { DeliveryLaneKey } from '../../../src/shared/temporal/search-attributes';
import { secondTenant, startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

/**
 * Issue 23: one workspace's dead endpoint must not slow another workspace's webhooks. The real
 * Temporal dev server (task queue fairness on), real HTTP on loopback, the lanes made small: the
 * fast lane takes two attempts per endpoint, the slow lane two at once.
 */
describe("delivery capacity: a dead endpoint holds only its workspace's share", () => {
  let stack: CapacityStack;
  let a: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startCapacityStack({
      DELIVERY_FAST_LANE_SLOTS: '4',
      DELIVERY_FAST_LANE_PER_WORKSPACE: '2',
      DELIVERY_FAST_LANE_PER_ENDPOINT: '2',
      DELIVERY_SLOW_LANE_SLOTS: '2',
      // Many writes at once in this test, all from one workspace's key: ten at a time, so the API's
      // writes leave the worker connections of the pool (20) on a loaded machine; at twenty, a write
      // waited over the pool's 5 s and was refused as busy.
      API_CONCURRENCY_PER_WORKSPACE: '10',
    });
    ({ a, receiver } = stack);
    // Never answers within the 5 s request timeout.
    receiver.replies('/dead', { status: 200, delayMs: 60_000 });
  }, 120_000);

  const workspaceOf = async (webhookId: string): Promise<string> =>
    (await a.app.dataSource.query(`SELECT workspace_id FROM webhooks WHERE id = $1`, [webhookId]))[0]
      .workspace_id;

  afterAll(async () => {
    await stack?.close();
  });

  it("delivers another workspace's event at once while the first one's fifty attempts hang", async () => {
    const dead = await a.webhook(`${receiver.url}/dead`);
    // Workspace B: another sign-up on the same service, its own key, a receiver that answers at once.
    const b = await secondTenant(stack, 'second-tenant@example.com');

    const writes = await Promise.all(Array.from({ length: 50 }, (_, i) => a.createDeal(`Hanging ${i}`)));
    expect(writes).toHaveLength(50);
    // A's first attempts are hanging now.
    await eventually(
      async () => receiver.received.filter((r) => r.path === '/dead').length >= 2,
      'A hanging',
    );

    const written = await b.createDeal('Meanwhile in B');
    expect(written.status).toBe(201);
    await eventually(
      async () =>
        receiver.received.some(
          (r) => r.path === '/b' && r.json?.data?.record?.ref?.recordId === written.body.id,
        ),
      "B's delivery",
      10_000,
    );
    // At once: B's delivery arrived while every attempt A made was still waiting for its answer
    // (each hangs until the 5 s timeout), not after A's attempts gave up and freed the worker.
    const aSends: { outcome: string }[] = await a.app.dataSource.query(
      `SELECT a.outcome FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = $1`,
      [dead.id],
    );
    expect(aSends.length).toBeGreaterThanOrEqual(2);
    expect(aSends.every((send) => send.outcome === 'sending')).toBe(true);

    // A holds only its share: at most two fast-lane and two slow-lane requests at a time…
    expect(receiver.received.filter((r) => r.path === '/dead').length).toBeLessThanOrEqual(4);
    // …and nothing of A's is lost: every write has its delivery, the rest waiting for capacity.
    const rows: { waiting: number; total: number }[] = await a.app.dataSource.query(
      `SELECT count(*) FILTER (WHERE waiting_since IS NOT NULL)::int AS waiting, count(*)::int AS total
         FROM deliveries WHERE webhook_id = $1`,
      [dead.id],
    );
    expect(rows[0]).toMatchObject({ total: 50 });
    expect(rows[0]!.waiting).toBeGreaterThan(40);

    // The metrics say so, per workspace and endpoint.
    const metrics = await a.app.metrics.metrics();
    const aLabels = `workspace="${dead.workspaceId ?? (await workspaceOf(dead.id))}",webhook="${dead.id}"`;
    expect(metrics).toMatch(new RegExp(`webhook_lane_in_flight\\{lane="fast",${aLabels}\\} 2`));
    expect(metrics).toMatch(new RegExp(`webhook_deliveries_waiting\\{${aLabels},where="held"\\} \\d+`));
    expect(metrics).toContain('webhook_lane_slots{lane="fast"} 4');
    // B's attempt is counted once the worker has read and recorded the answer, just after the POST arrived.
    await eventually(
      async () =>
        /webhook_attempts_total\{lane="fast",workspace="[^"]+",result="delivered"\} 1/.test(
          await a.app.metrics.metrics(),
        ),
      "B's attempt counted as delivered in the fast lane",
    );
  }, 60_000);

  it('marks the endpoint degraded, and a delivery whose attempt waits in the slow lane says so in Temporal', async () => {
    const [hook] = (await a.api('GET', '/webhooks')).body.data.filter((w: { url: string }) =>
      w.url.endsWith('/dead'),
    );
    await eventually(async () => {
      const [state] = await a.app.dataSource.query(
        `SELECT state, reason FROM endpoint_states WHERE webhook_id = $1`,
        [hook.id],
      );
      return state?.state === 'degraded' || state?.state === 'failing';
    }, 'the endpoint degraded');
    // Released a few at a time, their first attempts go to the slow lane: DeliveryLane says so.
    await eventually(
      async () => {
        const started: { id: string }[] = await a.app.dataSource.query(
          `SELECT id FROM deliveries WHERE webhook_id = $1 AND workflow_started_at IS NOT NULL`,
          [hook.id],
        );
        for (const { id } of started) {
          // A held delivery is claimed (workflow_started_at set) just before its workflow starts.
          const described = await a.app.env.client.workflow
            .getHandle(deliveryWorkflowId(id))
            .describe()
            .catch((error: unknown) => {
              if (error instanceof WorkflowNotFoundError) return undefined;
              throw error;
            });
          if (described?.typedSearchAttributes.get(DeliveryLaneKey) === 'slow') return true;
        }
        return false;
      },
      'a delivery in the slow lane',
      20_000,
    );
    const metrics = await a.app.metrics.metrics();
    const labels = `workspace="${await workspaceOf(hook.id)}",webhook="${hook.id}"`;
    expect(metrics).toMatch(
      new RegExp(`webhook_endpoint_unhealthy_since_seconds\\{${labels},state="(degraded|failing)"\\} \\d+`),
    );
    expect(metrics).toMatch(
      /webhook_lane_deferred_total\{workspace="[^"]+",reason="endpoint-unhealthy"\} \d+/,
    );
  }, 60_000);
});
