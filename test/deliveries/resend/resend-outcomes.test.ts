import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { resendWorkflowId } from '../../../workflows/resend-delivery.workflow';
import { resendFailedWorkflowId } from '../../../workflows/resend-failed.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { Receiver } from '../../helpers/receiver';

/**
 * Issue 33, item 2: resend workflows read true in Temporal (the real time-skipping server, a real
 * receiver on loopback). A resend whose delivery fails for good completes with that outcome, so
 * only the delivery's own workflow is Failed: one red row per failed delivery. A "Resend failed
 * since…" batch whose resends all failed says so in its result and its final current details.
 */
describe('resend workflows: their results say how the deliveries ended (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const workflows = () => fx.app.env.client.workflow;
  const statusOf = async (workflowId: string) =>
    (await workflows().getHandle(workflowId).describe()).status.name;
  const row = (id: string) => fx.app.dataSource.manager.findOneByOrFail(Delivery, { id });

  /**
   * A webhook whose receiver answers 400 Bad Request (not retried): each delivery fails for good at
   * once, and the webhook stays enabled (a 410 Gone would disable it: docs/deliveries.md#when-an-endpoint-keeps-failing).
   */
  async function goneDeliveries(path: string, count: number) {
    receiver.replies(`/${path}`, { status: 400, statusText: 'Bad Request' });
    const webhook = await fx.webhook(`${receiver.url}/${path}`, { events: ['record.created'] });
    for (let made = 1; made <= count; made++) await fx.createDeal(`Deal ${path} ${made}`);
    const deliveries = await fx.deliveriesOf(webhook.id, count);
    for (const delivery of deliveries) {
      await expect(fx.finish(delivery.id)).resolves.toEqual({ status: 'failed', attempts: 1 });
    }
    return { webhook, deliveries };
  }

  it('completes a resend whose delivery failed for good with that outcome; only the delivery’s workflow is Failed', async () => {
    const { webhook, deliveries } = await goneDeliveries('gone-once', 1);
    const resent = await fx.api('POST', `/webhooks/${webhook.id}/deliveries/${deliveries[0]!.id}/resend`);
    expect(resent.status).toBe(201);

    await expect(workflows().getHandle(resendWorkflowId(resent.body.id)).result()).resolves.toEqual({
      status: 'failed',
      attempts: 1,
      reason: 'Delivery failed after 1 attempt: Bad Request',
    });
    expect(await statusOf(resendWorkflowId(resent.body.id))).toBe('COMPLETED');
    expect(await statusOf(deliveryWorkflowId(resent.body.id))).toBe('FAILED');
    expect(await row(resent.body.id)).toMatchObject({ status: 'failed', statusCode: 400 });
  });

  /** Resends the webhook's Failed deliveries of the last hour; the ids of the resends, once it completed. */
  async function resendFailed(webhookId: string) {
    const started = await fx.api('POST', `/webhooks/${webhookId}/resend-failed`, {
      since: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
    });
    expect(started.status).toBe(202);
    let batch: any;
    await eventually(async () => {
      batch = (await fx.api('GET', `/webhooks/${webhookId}/resend-batches/${started.body.id}`)).body;
      return batch.status === 'completed';
    }, 'the batch completed');
    const resentIds: string[] = batch.results.map((r: { resentDeliveryId: string }) => r.resentDeliveryId);
    return { batchId: started.body.id as string, resentIds };
  }

  it('a batch whose resends all failed completes saying so; one red row per failed delivery', async () => {
    const { webhook, deliveries } = await goneDeliveries('gone-batch', 3);
    const { batchId, resentIds } = await resendFailed(webhook.id);
    expect(resentIds).toHaveLength(3);
    // Their first (and only) attempts end in real time; the batch reads them again meanwhile.
    await eventually(
      async () => (await Promise.all(resentIds.map(row))).every((resend) => resend.status === 'failed'),
      'every resend failed for good',
    );

    const handle = workflows().getHandle(resendFailedWorkflowId(batchId));
    await expect(handle.result()).resolves.toEqual({
      resent: 3,
      refused: 0,
      deliveries: { delivered: 0, failed: 3, retrying: 0, inFlight: 0 },
    });
    expect(await statusOf(resendFailedWorkflowId(batchId))).toBe('COMPLETED');
    const metadata = await handle.query<{ currentDetails: string }>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toBe(
      '**3 of 3** handled: 3 resent, 0 refused.\n\n' +
        'Resent deliveries: 0 delivered, 3 failed, 0 retrying, 0 in flight.',
    );

    // Six deliveries failed (three, and their three resends): six red rows, each a delivery's own.
    const statuses = await Promise.all(
      [...deliveries.map((delivery) => delivery.id), ...resentIds].map((id) =>
        statusOf(deliveryWorkflowId(id)),
      ),
    );
    expect(statuses).toEqual(Array(6).fill('FAILED'));
    for (const id of resentIds) {
      expect(await statusOf(resendWorkflowId(id))).toBe('COMPLETED');
      await expect(workflows().getHandle(resendWorkflowId(id)).result()).resolves.toMatchObject({
        status: 'failed',
        attempts: 1,
      });
    }
  });

  it('waits a little for resends still in flight before it says how they ended', async () => {
    const { webhook } = await goneDeliveries('slow-batch', 2);
    // The receiver is back, slowly: each resend is Sending for 1.5 s after the batch made it.
    receiver.replies('/slow-batch', { status: 200, delayMs: 1_500 });
    const { batchId, resentIds } = await resendFailed(webhook.id);
    await eventually(
      async () => (await Promise.all(resentIds.map(row))).every((resend) => resend.status === 'delivered'),
      'both resends delivered',
    );
    const handle = workflows().getHandle(resendFailedWorkflowId(batchId));
    await expect(handle.result()).resolves.toEqual({
      resent: 2,
      refused: 0,
      deliveries: { delivered: 2, failed: 0, retrying: 0, inFlight: 0 },
    });
    // It read them, found them in flight, and waited (a timer) before reading again.
    const history = await handle.fetchHistory();
    expect((history.events ?? []).some((event) => event.timerStartedEventAttributes)).toBe(true);
  });
});
