import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptOutcome } from '../../src/deliveries/engine/delivery-attempts';
import { RETRY_NOT_WAITING, retryNowUpdate } from '../../workflows/delivery.workflow';
import { ATTEMPT_OUTCOMES, createDeliveryTimeSkippingEnv } from '../helpers/temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';
import { tracingSinks } from '../../src/temporal/tracing';

/**
 * Issue 33, item 3: one Retry now per scheduled attempt, in the delivery workflow itself (today's
 * code, the real time-skipping server). Two calls read the same scheduled attempt; the first brings
 * it forward, it fails fast, and the workflow waits for the next one: the second names the attempt
 * that already ran, and its validator refuses it, leaving nothing in the history and the wait as it
 * was. This is the interleaving the REST test (test/deliveries/resend/retry-now.test.ts) can only
 * hope for; here each step is awaited before the next.
 */
describe('Retry now names its attempt (time skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createDeliveryTimeSkippingEnv();
  });
  afterAll(() => env?.teardown());

  const { retry, delivered } = ATTEMPT_OUTCOMES;

  /**
   * A delivery of today's workflow whose attempts answer `outcomes` in order (the last repeating),
   * run while `during` runs, once its first attempt failed and it waits for the second.
   */
  async function whileWaitingForAttempt2(
    outcomes: AttemptOutcome[],
    during: (delivery: {
      handle: ReturnType<TestWorkflowEnvironment['client']['workflow']['getHandle']>;
      events: (kind: string) => Promise<unknown[]>;
      until: (check: () => Promise<boolean>) => Promise<void>;
    }) => Promise<void>,
  ): Promise<number[]> {
    const ran: number[] = [];
    const attempt = async (request: { attempt: number }) => {
      ran.push(request.attempt);
      return outcomes.length > 1 ? outcomes.shift()! : outcomes[0]!;
    };
    const taskQueue = `retry-now-${randomUUID()}`;
    const workflowId = `delivery-${randomUUID()}`;
    const worker = await Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await testWorkflowBundle(),
      activities: { attemptDelivery: attempt, attemptInFastLane: attempt, attemptInSlowLane: attempt },
    });
    const handle = env.client.workflow.getHandle(workflowId);
    const events = async (kind: string) =>
      ((await handle.fetchHistory()).events ?? []).filter(
        (event) => (event as Record<string, unknown>)[kind],
      );
    const until = async (check: () => Promise<boolean>) => {
      while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await worker.runUntil(async () => {
      await env.client.workflow.start('deliveryWorkflow', {
        taskQueue,
        workflowId,
        args: [{ deliveryId: randomUUID(), workspaceId: randomUUID(), webhookId: randomUUID() }],
      });
      await until(async () => (await events('timerStartedEventAttributes')).length === 1);
      await during({ handle, events, until });
    });
    return ran;
  }

  it('refuses a second call naming the attempt the first one already brought forward, and takes the next one named', async () => {
    const ran = await whileWaitingForAttempt2(
      [retry, retry, delivered],
      async ({ handle, events, until }) => {
        // Attempt 1 failed; both callers saw attempt 2 scheduled. The first brings it forward.
        await expect(handle.executeUpdate(retryNowUpdate, { args: [{ attempt: 2 }] })).resolves.toEqual({
          attempt: 2,
        });
        // Attempt 2 ran at once and failed fast: the workflow waits 20 s for attempt 3.
        await until(async () => (await events('timerStartedEventAttributes')).length === 2);

        // The second call, made when attempt 2 was still scheduled, arrives now: refused.
        await expect(handle.executeUpdate(retryNowUpdate, { args: [{ attempt: 2 }] })).rejects.toMatchObject({
          cause: {
            type: RETRY_NOT_WAITING,
            message: expect.stringMatching(/not waiting for attempt 2: attempt 3 is scheduled now/),
          },
        });
        expect(await events('workflowExecutionUpdateAcceptedEventAttributes')).toHaveLength(1);
        expect(await events('timerCanceledEventAttributes')).toHaveLength(1);

        // A call that saw attempt 3 scheduled brings that one forward.
        await expect(handle.executeUpdate(retryNowUpdate, { args: [{ attempt: 3 }] })).resolves.toEqual({
          attempt: 3,
        });
        await expect(handle.result()).resolves.toEqual({ status: 'delivered', attempts: 3 });
        expect(await events('workflowExecutionUpdateAcceptedEventAttributes')).toHaveLength(2);
        expect(await events('timerFiredEventAttributes')).toHaveLength(0);
      },
    );
    expect(ran).toEqual([1, 2, 3]);
  });

  it('refuses a call naming an attempt ahead of the one it waits for', async () => {
    const ran = await whileWaitingForAttempt2([retry], async ({ handle }) => {
      await expect(handle.executeUpdate(retryNowUpdate, { args: [{ attempt: 5 }] })).rejects.toMatchObject({
        cause: { type: RETRY_NOT_WAITING, message: expect.stringMatching(/not waiting for attempt 5/) },
      });
      await handle.terminate('test over');
    });
    expect(ran).toEqual([1]);
  });
});
