import { randomUUID } from 'node:crypto';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptOutcome } from '../../src/deliveries/engine/delivery-attempts';
import { deliveryWorkflowId } from '../../workflows/delivery.workflow';
import { resendWorkflowId } from '../../workflows/resend-delivery.workflow';
import { resendFailedWorkflowId } from '../../workflows/resend-failed.workflow';
import type { BatchStep } from '../../src/deliveries/resend/resend-batch-steps';
import {
  ATTEMPT_OUTCOMES,
  createDeliveryTimeSkippingEnv,
  mostInFlight,
  patchesInHistory,
} from '../helpers/temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';
import { tracingSinks } from '../../src/temporal/tracing';

/**
 * Issue 33, item 2, across an upgrade: histories recorded by the resend workflows as they were
 * before (a resend that failed with its delivery, a batch whose result was its tally;
 * test/fixtures/workflows/resend-before-outcomes.ts) replay on today's code without a
 * non-determinism error, and a resend whose delivery was still retrying when today's worker took
 * over completes with the delivery's outcome. Issue 37: a batch that made its resends one after
 * another (test/fixtures/workflows/resend-batch-one-by-one.ts) replays, and goes on so when
 * today's worker takes it over; a batch started today makes several at once.
 */
describe('resend workflows replay across their patches (time skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createDeliveryTimeSkippingEnv();
  });
  afterAll(() => env?.teardown());

  const OLD = require.resolve('../fixtures/workflows/resend-before-outcomes');
  const ONE_BY_ONE = require.resolve('../fixtures/workflows/resend-batch-one-by-one');
  const TODAY = require.resolve('../../workflows');
  const { retry, delivered, refused } = ATTEMPT_OUTCOMES;

  /**
   * Delivery attempts that answer `outcomes` by attempt number (a local activity may run again when
   * a worker without a cache replays it), and batch steps that resend, then refuse.
   */
  const scripted = (outcomes: AttemptOutcome[]) => {
    const attempt = async (request: { attempt: number }) => outcomes[request.attempt - 1]!;
    const steps: ('resent' | 'refused')[] = ['resent', 'refused'];
    return {
      attemptDelivery: attempt,
      attemptInFastLane: attempt,
      attemptInSlowLane: attempt,
      resendBatchDelivery: async () => steps.shift()!,
      refuseBatchDelivery: async () => 'refused' as const,
      completeResendBatch: async () => undefined,
      resentDeliveryOutcomes: async () => ({ delivered: 1, failed: 0, retrying: 0, inFlight: 0 }),
    };
  };
  const worker = async (workflowsPath: string, taskQueue: string, activities: object, cache = true) =>
    Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await testWorkflowBundle(workflowsPath),
      activities,
      ...(cache ? {} : { maxCachedWorkflows: 0 }),
    });
  const resendInput = (deliveryId: string) => ({
    deliveryId,
    originalDeliveryId: randomUUID(),
    workspaceId: randomUUID(),
    webhookId: randomUUID(),
    event: 'record.created',
    eventId: randomUUID(),
    url: 'https://receiver.example.com/hooks',
  });
  const replayOnToday = async (history: Awaited<ReturnType<typeof historyOf>>, workflowId: string) =>
    Worker.runReplayHistory(
      { sinks: tracingSinks(), workflowBundle: await testWorkflowBundle(TODAY) },
      history,
      workflowId,
    );
  const historyOf = (workflowId: string) => env.client.workflow.getHandle(workflowId).fetchHistory();
  const has = (history: Awaited<ReturnType<typeof historyOf>>, kind: string) =>
    (history.events ?? []).some((event) => (event as Record<string, unknown>)[kind]);

  it.each([
    ['delivered', [delivered], 'workflowExecutionCompletedEventAttributes'],
    ['failed for good, and the resend with it', [retry, refused], 'workflowExecutionFailedEventAttributes'],
  ])('replays an old resend whose delivery was %s', async (_name, outcomes, ending) => {
    const deliveryId = randomUUID();
    const taskQueue = `old-resend-${randomUUID()}`;
    const old = await worker(OLD, taskQueue, scripted(outcomes));
    await old.runUntil(
      env.client.workflow
        .execute('resendDeliveryWorkflow', {
          taskQueue,
          workflowId: resendWorkflowId(deliveryId),
          args: [resendInput(deliveryId)],
        })
        .catch(() => undefined),
    );
    const history = await historyOf(resendWorkflowId(deliveryId));
    expect(has(history, 'startChildWorkflowExecutionInitiatedEventAttributes')).toBe(true);
    expect(has(history, ending)).toBe(true);
    await expect(replayOnToday(history, resendWorkflowId(deliveryId))).resolves.toBeUndefined();
  });

  it('replays an old batch whose result was its tally alone', async () => {
    const taskQueue = `old-batch-${randomUUID()}`;
    const workflowId = `resend-batch-${randomUUID()}`;
    const old = await worker(OLD, taskQueue, scripted([]));
    const result = await old.runUntil(
      env.client.workflow.execute('resendFailedWorkflow', {
        taskQueue,
        workflowId,
        args: [{ batchId: randomUUID(), deliveryIds: [randomUUID(), randomUUID()] }],
      }),
    );
    expect(result).toEqual({ resent: 1, refused: 1 });
    await expect(replayOnToday(await historyOf(workflowId), workflowId)).resolves.toBeUndefined();
  });

  it('takes over a resend whose delivery was retrying: it completes with the delivery’s failure, and the mixed history replays', async () => {
    const deliveryId = randomUUID();
    const taskQueue = `upgrade-resend-${randomUUID()}`;
    const activities = scripted([retry, refused]);
    // 0 until the child exists too.
    const childTimers = async () =>
      ((await historyOf(deliveryWorkflowId(deliveryId)).catch(() => ({ events: [] }))).events ?? []).filter(
        (event) => event.timerStartedEventAttributes,
      ).length;

    // The old worker starts the resend; its delivery fails its first attempt and waits 10 s.
    const old = await worker(OLD, taskQueue, activities, false);
    await old.runUntil(async () => {
      await env.client.workflow.start('resendDeliveryWorkflow', {
        taskQueue,
        workflowId: resendWorkflowId(deliveryId),
        args: [resendInput(deliveryId)],
      });
      while ((await childTimers()) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    });

    // Today's worker takes both over: the second attempt fails for good.
    const current = await worker(TODAY, taskQueue, activities);
    const result = await current.runUntil(
      env.client.workflow.getHandle(resendWorkflowId(deliveryId)).result(),
    );
    expect(result).toEqual({
      status: 'failed',
      attempts: 2,
      reason: 'Delivery failed after 2 attempts: Not Found',
    });
    const described = async (id: string) => (await env.client.workflow.getHandle(id).describe()).status.name;
    expect(await described(resendWorkflowId(deliveryId))).toBe('COMPLETED');
    expect(await described(deliveryWorkflowId(deliveryId))).toBe('FAILED');
    await expect(
      replayOnToday(await historyOf(resendWorkflowId(deliveryId)), resendWorkflowId(deliveryId)),
    ).resolves.toBeUndefined();
  });

  /** Batch steps that resend, except every third delivery (refused after its retries). */
  const batchSteps = (block?: (step: BatchStep) => Promise<void>) => ({
    resendBatchDelivery: async (step: BatchStep) => {
      await block?.(step);
      if (step.position % 3 === 1) throw ApplicationFailure.nonRetryable('refused', 'Scripted');
      return 'resent' as const;
    },
    refuseBatchDelivery: async () => 'refused' as const,
    completeResendBatch: async () => undefined,
    resentDeliveryOutcomes: async () => ({ delivered: 2, failed: 0, retrying: 0, inFlight: 0 }),
  });
  const batchInput = (size: number) => ({
    batchId: randomUUID(),
    deliveryIds: Array.from({ length: size }, () => randomUUID()),
  });
  /** The tally of a batch of `size` whose every third step from the second is refused. */
  const tallyOf = (size: number) => {
    const refused = Array.from({ length: size }, (_, position) => position % 3 === 1).filter(Boolean).length;
    return { resent: size - refused, refused };
  };

  it('replays a batch that made its resends one after another, and makes them several at once today', async () => {
    const taskQueue = `one-by-one-${randomUUID()}`;
    const input = batchInput(7);
    const workflowId = resendFailedWorkflowId(input.batchId);
    const old = await worker(ONE_BY_ONE, taskQueue, batchSteps());
    const result = await old.runUntil(
      env.client.workflow.execute('resendFailedWorkflow', { taskQueue, workflowId, args: [input] }),
    );
    expect(result).toEqual({
      ...tallyOf(7),
      deliveries: { delivered: 2, failed: 0, retrying: 0, inFlight: 0 },
    });
    const history = await historyOf(workflowId);
    expect(mostInFlight(history, 'resendBatchDelivery')).toBe(1);
    await expect(replayOnToday(history, workflowId)).resolves.toBeUndefined();

    // Today: 20 deliveries, 8 in flight from the first workflow task on, the same tally.
    const today = batchInput(20);
    const todayId = resendFailedWorkflowId(today.batchId);
    const current = await worker(TODAY, taskQueue, batchSteps());
    const ran = await current.runUntil(
      env.client.workflow.execute('resendFailedWorkflow', { taskQueue, workflowId: todayId, args: [today] }),
    );
    expect(ran).toMatchObject(tallyOf(20));
    const todays = await historyOf(todayId);
    expect(mostInFlight(todays, 'resendBatchDelivery')).toBe(8);
    expect(patchesInHistory(todays)).toEqual(['resend-batch-at-once', 'resend-batch-outcomes']);
    await expect(replayOnToday(todays, todayId)).resolves.toBeUndefined();
  });

  it('goes on one after another when today’s worker takes over a batch begun so, and the mixed history replays', async () => {
    const taskQueue = `batch-upgrade-${randomUUID()}`;
    const input = batchInput(6);
    const workflowId = resendFailedWorkflowId(input.batchId);
    // The old worker makes two steps; the third waits until the worker stops (its activity then
    // fails as the worker's shutdown, and is retried on today's worker).
    let third: () => void;
    const thirdStarted = new Promise<void>((resolve) => (third = resolve));
    const waitOnThird = async (step: BatchStep) => {
      if (step.position < 2) return;
      third();
      await Context.current().cancelled;
    };
    const old = await worker(ONE_BY_ONE, taskQueue, batchSteps(waitOnThird), false);
    await old.runUntil(async () => {
      await env.client.workflow.start('resendFailedWorkflow', { taskQueue, workflowId, args: [input] });
      await thirdStarted;
    });

    const current = await worker(TODAY, taskQueue, batchSteps());
    const result = await current.runUntil(env.client.workflow.getHandle(workflowId).result());
    expect(result).toMatchObject(tallyOf(6));
    const history = await historyOf(workflowId);
    expect(mostInFlight(history, 'resendBatchDelivery')).toBe(1);
    expect(patchesInHistory(history)).toEqual(['resend-batch-outcomes']);
    await expect(replayOnToday(history, workflowId)).resolves.toBeUndefined();
  });
});
