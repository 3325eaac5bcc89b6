import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import type { AttemptOutcome } from '../../src/deliveries/engine/delivery-attempts';
import { RETRY_NOT_WAITING, retryNowUpdate } from '../../workflows/delivery.workflow';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { ATTEMPT_OUTCOMES, createTimeSkippingEnv } from '../helpers/temporal';
import { testWorkflowBundle } from '../helpers/workflow-bundle';
import { tracingSinks } from '../../src/temporal/tracing';

/**
 * Deliveries in flight during an upgrade: histories recorded by the delivery workflow as it was
 * before the `delivery-status-on-change` patch, before attempts became local activities, before
 * the fast and slow lanes, and before Retry now, replay on today's code (workflows/) without a
 * non-determinism error, as Temporal replays them when a new worker picks them up; and a delivery
 * started before Retry now is taken over mid-schedule by today's code.
 */
describe('delivery workflow replay across its patches (time skipping)', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    await ensureSearchAttributes(env.connection, env.namespace ?? 'default');
  });
  afterAll(() => env?.teardown());

  /** Attempts that answer `outcomes` in order, in either lane (the fast lane never defers here). */
  const scripted = (outcomes: AttemptOutcome[]) => {
    const script = [...outcomes];
    const next = async () => script.shift()!;
    return { attemptDelivery: next, attemptInFastLane: next, attemptInSlowLane: next };
  };

  /** A delivery's input: with its workspace and webhook (lanes), as deliveries started since issue 23. */
  const deliveryInput = (lanes: boolean) => ({
    deliveryId: randomUUID(),
    ...(lanes ? { workspaceId: randomUUID(), webhookId: randomUUID() } : {}),
  });

  /** A history of an old workflow (a fixture) whose attempts answer `outcomes` in order. */
  async function oldHistory(fixture: string, outcomes: AttemptOutcome[], lanes = false) {
    const taskQueue = `old-${randomUUID()}`;
    const worker = await Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await testWorkflowBundle(require.resolve(`../fixtures/workflows/${fixture}`)),
      activities: scripted(outcomes),
    });
    const workflowId = `delivery-${randomUUID()}`;
    await worker.runUntil(
      env.client.workflow
        .execute('deliveryWorkflow', { taskQueue, workflowId, args: [deliveryInput(lanes)] })
        // A delivery that failed for good ends the newer workflows as Failed: still a history.
        .catch(() => undefined),
    );
    return { workflowId, history: await env.client.workflow.getHandle(workflowId).fetchHistory() };
  }

  const { retry, delivered, refused } = ATTEMPT_OUTCOMES;

  it.each([
    ['delivery-before-status-patch', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-status-patch', 'failed for good after a retry', [retry, refused]],
    ['delivery-before-local-attempts', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-local-attempts', 'failed for good after a retry', [retry, refused]],
    ['delivery-before-lanes', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-lanes', 'failed for good after a retry', [retry, refused]],
    ['delivery-before-retry-now', 'delivered after two retries', [retry, retry, delivered]],
    ['delivery-before-retry-now', 'failed for good after a retry', [retry, refused]],
  ])('replays an old history (%s): %s', async (fixture, _name, outcomes) => {
    const lanes = fixture === 'delivery-before-retry-now';
    const { workflowId, history } = await oldHistory(fixture, outcomes, lanes);
    // Its attempts are in it, as activities or as local activities' markers.
    expect(
      history.events?.filter(
        (event) =>
          event.activityTaskScheduledEventAttributes ||
          event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
      ).length,
    ).toBe(outcomes.length);
    await expect(
      Worker.runReplayHistory(
        { sinks: tracingSinks(), workflowBundle: await testWorkflowBundle() },
        history,
        workflowId,
      ),
    ).resolves.toBeUndefined();
  });

  /** The history's events of one kind, e.g. `timerStartedEventAttributes`. */
  const eventsOf = (history: Awaited<ReturnType<typeof oldHistory>>['history'], kind: string) =>
    (history.events ?? []).filter((event) => (event as Record<string, unknown>)[kind]);

  it('takes over a delivery started before Retry now mid-schedule: its next wait can be ended, and the mixed history replays', async () => {
    const taskQueue = `upgrade-${randomUUID()}`;
    const workflowId = `delivery-${randomUUID()}`;
    const activities = scripted([retry, retry, delivered]);
    const handle = () => env.client.workflow.getHandle(workflowId);
    const timers = async () => eventsOf(await handle().fetchHistory(), 'timerStartedEventAttributes').length;
    const until = async (check: () => Promise<boolean>) => {
      while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
    };

    // The old worker runs the first attempt and starts its 10 s wait, then stops (no sticky cache,
    // so the next workflow task goes to whichever worker polls).
    const old = await Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      maxCachedWorkflows: 0,
      workflowBundle: await testWorkflowBundle(
        require.resolve('../fixtures/workflows/delivery-before-retry-now'),
      ),
      activities,
    });
    await old.runUntil(async () => {
      await env.client.workflow.start('deliveryWorkflow', {
        taskQueue,
        workflowId,
        args: [deliveryInput(true)],
      });
      await until(async () => (await timers()) === 1);
    });

    // Today's worker replays that wait as the sleep it was, so it cannot be ended…
    const current = await Worker.create({
      sinks: tracingSinks(),
      connection: env.nativeConnection,
      namespace: env.namespace,
      taskQueue,
      workflowBundle: await testWorkflowBundle(),
      activities,
    });
    const accepted = await current.runUntil(async () => {
      // (Called as an API of before Retry now named its attempt calls it: no argument.)
      await expect(handle().executeUpdate(retryNowUpdate.name)).rejects.toMatchObject({
        cause: { type: RETRY_NOT_WAITING, message: expect.stringMatching(/not waiting/) },
      });
      await env.sleep('10s');
      // …but the second wait, started by today's code, can: the third attempt runs now.
      await until(async () => (await timers()) === 2);
      const answer = await handle().executeUpdate(retryNowUpdate, { args: [{ attempt: 3 }] });
      await expect(handle().result()).resolves.toEqual({ status: 'delivered', attempts: 3 });
      return answer;
    });
    expect(accepted).toEqual({ attempt: 3 });

    const history = await handle().fetchHistory();
    expect(
      eventsOf(history, 'timerStartedEventAttributes').map((event) =>
        Number(event.timerStartedEventAttributes!.startToFireTimeout!.seconds),
      ),
    ).toEqual([10, 20]);
    expect(eventsOf(history, 'timerFiredEventAttributes')).toHaveLength(1);
    expect(eventsOf(history, 'timerCanceledEventAttributes')).toHaveLength(1);
    // The refused Retry now left nothing in the history; the accepted one did.
    expect(eventsOf(history, 'workflowExecutionUpdateAcceptedEventAttributes')).toHaveLength(1);
    await expect(
      Worker.runReplayHistory(
        { sinks: tracingSinks(), workflowBundle: await testWorkflowBundle() },
        history,
        workflowId,
      ),
    ).resolves.toBeUndefined();
  });
});
