import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { deliveryWorkflow, deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { DeliveryStatusKey } from '../../../src/shared/temporal/search-attributes';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { databaseOutage } from '../../helpers/outage';
import { Receiver } from '../../helpers/receiver';
import { attemptsInHistory } from '../../helpers/temporal';

/**
 * What the delivery log and the Temporal Web UI say is true (issue 11): every request that left is
 * an attempt, a crash between send and record leaves a visible attempt of unknown outcome,
 * `retrying` differs from `failed`, a final failure is a Failed workflow, and a delivery row that is
 * gone ends its workflow at once.
 */
describe('the delivery log tells the truth (time skipping)', () => {
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

  const requestsTo = (path: string) => receiver.received.filter((request) => request.path === `/${path}`);
  const handleOf = (deliveryId: string) =>
    fx.app.env.client.workflow.getHandle(deliveryWorkflowId(deliveryId));

  it('shows a request whose answer was lost in a database outage as an attempt of unknown outcome, then the resend of it', async () => {
    // The receiver holds the first request; the database goes away while it does.
    receiver.replies('/outage', { status: 200, delayMs: 1_500 }, { status: 200 });
    const webhook = await fx.webhook(`${receiver.url}/outage`);
    await fx.createDeal('Deal sent during an outage');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await eventually(() => requestsTo('outage').length === 1, 'the first request');
    const reopen = await databaseOutage(fx.app.dataSource);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // the receiver answers; nothing can record it
    await reopen();

    expect(await fx.finish(delivery!.id)).toEqual({ status: 'delivered', attempts: 1 });
    const requests = requestsTo('outage');
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((request) => request.headers['x-service-delivery-id']))).toEqual(
      new Set([delivery!.id]),
    );
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${delivery!.id}`)).body;
    expect(details.attemptHistory).toEqual([
      expect.objectContaining({
        attempt: 1,
        send: 1,
        outcome: 'unknown',
        durationMs: null,
        statusCode: null,
        responseMessage: expect.stringMatching(/outcome unknown/i),
      }),
      expect.objectContaining({ attempt: 1, send: 2, outcome: 'delivered', statusCode: 200 }),
    ]);
    expect(details).toMatchObject({ status: 'delivered', attempts: 1 });
  }, 90_000);

  it('reads DeliveryStatus retrying while retries remain, and delivered at the end', async () => {
    receiver.replies('/retrying', { status: 503 }, { status: 200 });
    const webhook = await fx.webhook(`${receiver.url}/retrying`);
    await fx.createDeal('Deal retried');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await eventually(async () => {
      const [row] = await fx.app.dataSource.query(
        `SELECT count(*)::int AS n FROM delivery_attempts WHERE delivery_id = $1 AND outcome = 'retry'`,
        [delivery!.id],
      );
      return row.n === 1;
    }, 'the first attempt');
    await eventually(
      async () =>
        (await handleOf(delivery!.id).describe()).typedSearchAttributes.get(DeliveryStatusKey) === 'retrying',
      'DeliveryStatus retrying',
    );
    const row = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data[0];
    expect(row).toMatchObject({ status: 'failed', nextAttemptAt: expect.any(String) });

    expect(await fx.finish(delivery!.id)).toEqual({ status: 'delivered', attempts: 2 });
    const described = await handleOf(delivery!.id).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect(described.typedSearchAttributes.get(DeliveryStatusKey)).toBe('delivered');
    // Each attempt stays readable in the history (the Web UI), with its outcome. The endpoint
    // answered 503, so it is no longer healthy: the fast lane hands the retry to the slow lane.
    expect(attemptsInHistory(await handleOf(delivery!.id).fetchHistory())).toEqual([
      {
        activityType: 'attemptInFastLane',
        result: expect.objectContaining({ done: false, status: 'failed', statusCode: 503 }),
      },
      {
        activityType: 'attemptInFastLane',
        result: { deferred: 'endpoint-unhealthy', message: expect.stringContaining('degraded') },
      },
      {
        activityType: 'attemptInSlowLane',
        result: expect.objectContaining({ done: true, status: 'delivered', statusCode: 200 }),
      },
    ]);
  });

  it('ends a delivery that failed for good as a Failed workflow with DeliveryStatus failed', async () => {
    receiver.replies('/gone', { status: 410 });
    const webhook = await fx.webhook(`${receiver.url}/gone`);
    await fx.createDeal('Deal refused');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(delivery!.id)).toEqual({ status: 'failed', attempts: 1 });
    const described = await handleOf(delivery!.id).describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.typedSearchAttributes.get(DeliveryStatusKey)).toBe('failed');
    const row = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data[0];
    expect(row).toMatchObject({ status: 'failed', statusCode: 410, nextAttemptAt: null });
  });

  it('ends the workflow of a delivery row that no longer exists at once, without retrying', async () => {
    const deliveryId = randomUUID();
    const handle = await fx.app.env.client.workflow.start(deliveryWorkflow, {
      workflowId: deliveryWorkflowId(deliveryId),
      taskQueue: fx.app.taskQueue,
      args: [{ deliveryId }],
    });
    const failure = await handle.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    // The failure is the attempt's, and the history holds exactly one attempt, as the Web UI shows.
    expect((failure as WorkflowFailedError).cause).toMatchObject({ type: 'DeliveryMissing' });
    expect(attemptsInHistory(await handle.fetchHistory())).toEqual([
      { activityType: 'attemptDelivery', failureType: 'DeliveryMissing' },
    ]);
  });
});
