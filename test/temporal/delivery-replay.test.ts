import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptOutcome } from '../../src/deliveries/engine/delivery-attempts';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { createTimeSkippingEnv } from '../helpers/temporal';

/**
 * Deliveries in flight during an upgrade: histories recorded by the delivery workflow as it was
 * before the `delivery-status-on-change` patch, before attempts became local activities, and before
 * the fast and slow lanes, replay on today's code (workflows/) without a non-determinism error, as Temporal replays them
 * when a new worker picks them up.
 */
describe('delivery workflow replay across its patches (time skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
  });
  afterAll(() => env?.teardown());

  /** A history of an old workflow (a fixture) whose attempts answer `outcomes` in order. */
  async function oldHistory(fixture: string, outcomes: AttemptOutcome[]) {
    const taskQueue = `old-${randomUUID()}`;
    const script = [...outcomes];
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowsPath: require.resolve(`../fixtures/workflows/${fixture}`),
      activities: { attemptDelivery: async () => script.shift()! },
    });
    const workflowId = `delivery-${randomUUID()}`;
    await worker.runUntil(
      env.client.workflow
        .execute('deliveryWorkflow', { taskQueue, workflowId, args: [{ deliveryId: randomUUID() }] })
        // A delivery that failed for good ends the newer workflows as Failed: still a history.
        .catch(() => undefined),
    );
    return { workflowId, history: await env.client.workflow.getHandle(workflowId).fetchHistory() };
  }

  const retry: AttemptOutcome = { done: false, status: 'failed', statusCode: 503, responseMessage: 'Busy' };
  const delivered: AttemptOutcome = {
    done: true,
    status: 'delivered',
    statusCode: 200,
    responseMessage: 'OK',
  };
  const refused: AttemptOutcome = {
    done: true,
    status: 'failed',
    statusCode: 404,
    responseMessage: 'Not Found',
  };

  it.each([
    ['delivery-before-status-patch', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-status-patch', 'failed for good after a retry', [retry, refused]],
    ['delivery-before-local-attempts', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-local-attempts', 'failed for good after a retry', [retry, refused]],
    ['delivery-before-lanes', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-lanes', 'failed for good after a retry', [retry, refused]],
  ])('replays an old history (%s): %s', async (fixture, _name, outcomes) => {
    const { workflowId, history } = await oldHistory(fixture, outcomes);
    // Its attempts are in it, as activities or as local activities' markers.
    expect(
      history.events?.filter(
        (event) =>
          event.activityTaskScheduledEventAttributes ||
          event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
      ).length,
    ).toBe(outcomes.length);
    await expect(
      Worker.runReplayHistory({ workflowsPath: require.resolve('../../workflows') }, history, workflowId),
    ).resolves.toBeUndefined();
  });
});
