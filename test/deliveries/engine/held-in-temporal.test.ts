import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import {
  findHeldUpdate,
  heldDeliveriesWorkflowId,
  heldQuery,
  releaseNowUpdate,
} from '../../../workflows/held-deliveries.workflow';
import { DeliveryStatusKey } from '../../../src/shared/temporal/search-attributes';
import { startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

const WRITES = 10;

/**
 * Issue 33, item 3: a delivery held in PostgreSQL while its endpoint is unhealthy has no workflow of
 * its own yet, so it is found in Temporal through its endpoint's held-deliveries workflow: by its id
 * (HeldDeliveryIds, and the workflow's findHeld update), released from there (releaseNow), then
 * delivered exactly once. The real Temporal dev server, real HTTP on loopback; the lanes made small
 * so that deliveries stay held: one attempt in flight per endpoint, the slow lane taking one of the
 * workspace's at a time.
 */
describe('held deliveries in Temporal: found by delivery id, released by hand, delivered once', () => {
  let stack: CapacityStack;
  let a: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startCapacityStack({
      DELIVERY_FAST_LANE_PER_ENDPOINT: '1',
      DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE: '0.5',
      API_CONCURRENCY_PER_WORKSPACE: '20',
      TEMPORAL_UI_URL: 'http://temporal-ui.test',
    });
    ({ a, receiver } = stack);
    // Never answers within the 5 s request timeout; /fixed answers at once.
    receiver.replies('/dead', { status: 200, delayMs: 60_000 });
    receiver.replies('/fixed', { status: 204 });
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const held = async (webhookId: string): Promise<string[]> =>
    (
      await a.app.dataSource.query(
        `SELECT id FROM deliveries WHERE webhook_id = $1 AND waiting_since IS NOT NULL
            AND workflow_started_at IS NULL ORDER BY created_at`,
        [webhookId],
      )
    ).map((row: { id: string }) => row.id);
  const requestsFor = (deliveryId: string) =>
    receiver.received.filter((request) => request.headers['x-service-delivery-id'] === deliveryId);

  it('finds a held delivery by its id, releases it from there, and delivers it once', async () => {
    const webhook = await a.webhook(`${receiver.url}/dead`);
    for (let i = 0; i < WRITES; i++) await a.createDeal(`Held ${i}`);
    await eventually(async () => (await held(webhook.id)).length >= WRITES - 2, 'deliveries held');
    const newest = (await held(webhook.id)).at(-1)!;

    // The log links a held delivery to its endpoint's workflow, not to one that does not exist yet.
    const listed = (await a.api('GET', `/webhooks/${webhook.id}/deliveries?limit=50`)).body.data;
    expect(listed.find((row: { id: string }) => row.id === newest)).toMatchObject({
      status: 'pending',
      temporalUrl: `http://temporal-ui.test/namespaces/${a.app.env.namespace ?? 'default'}/workflows/${heldDeliveriesWorkflowId(webhook.id)}`,
    });

    // Found in Temporal by the delivery's id, and by webhook among the held-deliveries workflows.
    const client = a.app.env.client;
    const found = async (query: string) => {
      const ids: string[] = [];
      for await (const workflow of client.workflow.list({ query })) ids.push(workflow.workflowId);
      return ids;
    };
    await eventually(
      async () => (await found(`HeldDeliveryIds = "${newest}"`)).length === 1,
      'the held-deliveries workflow listed by a held delivery id',
      20_000,
    );
    expect(await found(`HeldDeliveryIds = "${newest}"`)).toEqual([heldDeliveriesWorkflowId(webhook.id)]);
    expect(await found(`WebhookId = "${webhook.id}" AND DeliveryStatus = "held"`)).toEqual([
      heldDeliveriesWorkflowId(webhook.id),
    ]);
    const handle = client.workflow.getHandle(heldDeliveriesWorkflowId(webhook.id));
    const snapshot = await handle.query(heldQuery);
    // Read by the workflow at its last refresh; the release passes only shorten the line since.
    expect(snapshot!.count).toBeGreaterThanOrEqual((await held(webhook.id)).length);
    expect(snapshot!.count).toBeLessThanOrEqual(WRITES);
    expect(snapshot!.oldest).toContain(newest);
    expect(Date.parse(snapshot!.since!)).toBeLessThanOrEqual(Date.now());

    // Any delivery by id: where it stands in the line; not this endpoint's: said so.
    // (The release passes start the oldest meanwhile, so the line only shortens while we ask.)
    const aheadBefore = (await held(webhook.id)).indexOf(newest);
    const place = await handle.executeUpdate(findHeldUpdate, { args: [newest] });
    const aheadAfter = (await held(webhook.id)).indexOf(newest);
    expect(place).toMatchObject({ deliveryId: newest, held: true });
    expect(place.held && place.ahead).toBeLessThanOrEqual(aheadBefore);
    expect(place.held && place.ahead).toBeGreaterThanOrEqual(aheadAfter);
    expect(aheadAfter).toBeGreaterThan(0);
    await expect(handle.executeUpdate(findHeldUpdate, { args: [randomUUID()] })).resolves.toMatchObject({
      held: false,
      status: null,
    });

    // A wrong input is refused before anything is recorded, and starts nothing.
    await expect(
      handle.executeUpdate(releaseNowUpdate, { args: [{ limit: 'all' } as unknown as { limit: number }] }),
    ).rejects.toThrow(WorkflowUpdateFailedError);
    expect(await held(webhook.id)).toContain(newest);

    // The receiver is fixed (a new URL); released from Temporal, the delivery starts once.
    expect((await a.api('PATCH', `/webhooks/${webhook.id}`, { url: `${receiver.url}/fixed` })).status).toBe(
      200,
    );
    const released = await handle.executeUpdate(releaseNowUpdate, { args: [{ deliveryId: newest }] });
    expect(released.started).toEqual([newest]);
    const again = await handle.executeUpdate(releaseNowUpdate, { args: [{ deliveryId: newest }] });
    expect(again.started).toEqual([]);
    await expect(handle.executeUpdate(findHeldUpdate, { args: [newest] })).resolves.toMatchObject({
      held: false,
    });

    // The rest, all at once from Temporal, straight away: the release passes start the held ones too (one
    // per pass while the endpoint is unhealthy), and once none is held the workflow ends, so an
    // update sent after a wait could find it closed. Each starts once and arrives once (while the
    // endpoint's state still says unhealthy, their attempts take the slow lane, one every 2 s here).
    const rest = await handle.executeUpdate(releaseNowUpdate, { args: [{}] });
    expect(rest.started.length).toBeGreaterThan(0);
    expect(rest.started).not.toContain(newest);
    const stillHeld = await held(webhook.id);
    expect(stillHeld.filter((id) => rest.started.includes(id))).toEqual([]);

    await eventually(
      async () =>
        (await a.api('GET', `/webhooks/${webhook.id}/deliveries?limit=50`)).body.data.find(
          (row: { id: string }) => row.id === newest,
        ).status === 'delivered',
      'the released delivery delivered',
      60_000,
    );
    expect(requestsFor(newest).map((request) => request.path)).toEqual(['/fixed']);
    await eventually(
      async () => rest.started.every((id) => requestsFor(id).length >= 1),
      'the rest delivered',
      60_000,
    );
    for (const id of rest.started) expect(requestsFor(id)).toHaveLength(1);

    // Nothing held any more: the workflow ends, and says so.
    await eventually(
      async () => (await handle.describe()).status.name === 'COMPLETED',
      'the workflow ended',
      40_000,
    );
    expect((await handle.describe()).typedSearchAttributes.get(DeliveryStatusKey)).toBe('released');
  }, 240_000);
});
