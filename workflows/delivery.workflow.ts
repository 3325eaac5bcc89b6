import {
  ApplicationFailure,
  condition,
  defineUpdate,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { slowLaneQueue } from '../src/shared/deliveries/lanes';
import { DELIVERY_MAX_ATTEMPTS } from '../src/shared/limits';
import { hasAttemptsLeft, retryDelayMs } from '../src/shared/deliveries/retry-policy';
import { DeliveryLaneKey, DeliveryStatusKey } from '../src/shared/temporal/search-attributes';

export interface DeliveryInput {
  deliveryId: string;
  /** Whose delivery it is, for the lanes' budgets; absent in deliveries started before the lanes. */
  workspaceId?: string;
  webhookId?: string;
}

/** How a delivery workflow ends: its result when delivered, the details of its failure otherwise. */
export interface DeliveryResult {
  status: 'delivered' | 'failed';
  attempts: number;
}

export const deliveryWorkflowId = (deliveryId: string) => `delivery-${deliveryId}`;

/** The failure type of a delivery that failed for good (the workflow ends Failed in the Web UI). */
export const DELIVERY_FAILED = 'DeliveryFailed';

/** What Retry now answers once the workflow accepted it: the attempt of the schedule that runs now. */
export interface RetryNowAccepted {
  attempt: number;
}

/** Which attempt Retry now brings forward: the one its caller saw scheduled (issue 33, item 3). */
export interface RetryNowRequest {
  attempt: number;
}

/**
 * Retry now (issue 27, item 1): ends the wait for the next attempt, which then runs at once as the
 * next of the ten, in the same delivery. Its validator refuses (failure type RETRY_NOT_WAITING,
 * nothing recorded in the history) unless the workflow is waiting for its next attempt, and for the
 * very attempt the request names: a second call made when the first attempt brought forward was
 * still scheduled must not end the wait for the one after it (issue 33, item 3). Today's API always
 * names the attempt; the workflow also takes a call that names none (an API of before, during an
 * upgrade), answered as it was then.
 */
export const retryNowUpdate = defineUpdate<RetryNowAccepted, [RetryNowRequest]>('retryNow');

/** The failure type of a refused Retry now: no wait to end (an attempt runs, or none follows). */
export const RETRY_NOT_WAITING = 'DeliveryNotWaiting';

// The activity returns the receiver's verdict; Temporal retries it only when it throws
// (infrastructure: the database unreachable, or the worker lost). The request's own deadline is
// 5 s, so 10 s to start and record it notices a lost worker within about 10 s (issue 11, item 3).
const attemptOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
const { attemptDelivery: attemptAsActivity } = proxyActivities<Activities>(attemptOptions);
// A local activity runs in the worker that runs the workflow task, so an attempt costs no trip
// through the server's task queues; its outcome is recorded in the history as a marker, which
// the Web UI shows with the attempt's result (docs/engine.md).
const { attemptDelivery: attemptLocally, attemptInFastLane } =
  proxyLocalActivities<Activities>(attemptOptions);

/**
 * Delivers one event to one webhook with the spec's retry schedule: up to 10 attempts, the first
 * retry 10 s after a failure, each pause doubling, capped at one hour. Each attempt is one (local) activity
 * (visible in the Web UI's history) and the row shows the latest outcome. `DeliveryStatus` reads
 * `retrying` while attempts remain; a delivery that failed for good ends the workflow as Failed.
 * The schedule is decided here alone: each attempt is told whether a retry follows and after which
 * pause, and records that. Retry now (`retryNowUpdate`) ends a pause early; the attempt that
 * follows is the next of the ten, and the pauses after it are the schedule's.
 */
export async function deliveryWorkflow(input: DeliveryInput): Promise<DeliveryResult> {
  // Registering a handler records nothing, so every version registers it; only a wait behind the
  // RETRY_NOW patch can be ended, other times Retry now is refused.
  const wait = retryNowWait();
  // Deliveries started before this version replay the schedule they were started with.
  if (!patched(STATUS_ON_CHANGE)) return deliveryWorkflowBefore(input);
  // Deliveries started before attempts became local activities keep scheduling regular ones.
  const local = patched(LOCAL_ATTEMPTS);
  const attemptDelivery = local ? attemptLocally : attemptAsActivity;
  // Deliveries started before the lanes (or by an API that did not pass whose they are) attempt at once.
  const { workspaceId, webhookId } = input;
  const lanes = local && patched(LANES) && workspaceId && webhookId ? { workspaceId, webhookId } : null;
  let shown: string | undefined;
  const show = (status: string) => {
    if (status !== shown) upsertSearchAttributes([{ key: DeliveryStatusKey, value: status }]);
    shown = status;
  };
  let lane = 'fast';
  const showLane = (next: 'fast' | 'slow') => {
    if (next !== lane) upsertSearchAttributes([{ key: DeliveryLaneKey, value: next }]);
    lane = next;
  };
  for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
    const pause = retryDelayMs(attempt);
    const request = { deliveryId: input.deliveryId, attempt, retryInMs: retryAfter(attempt, pause) };
    const outcome = lanes
      ? await attemptInLanes({ ...request, ...lanes }, showLane)
      : await attemptDelivery(request);
    if (outcome.status === 'delivered') {
      show('delivered');
      return { status: 'delivered', attempts: attempt };
    }
    if (outcome.done) return failed(show, attempt, outcome.responseMessage);
    show('retrying');
    await wait(pause, attempt + 1);
  }
  return failed(show, DELIVERY_MAX_ATTEMPTS, 'No attempts left.');
}

/** The patch id of `retrying`, upserts on change only and the Failed end (issue 11, item 4). */
const STATUS_ON_CHANGE = 'delivery-status-on-change';
/** The patch id of attempts as local activities (issue 14). */
const LOCAL_ATTEMPTS = 'delivery-local-attempts';
/** The patch id of the fast and slow lanes (issue 23). */
const LANES = 'delivery-lanes';
/**
 * The patch id of a wait Retry now can end (issue 27, item 1). Checked at each wait: a delivery
 * in flight during the upgrade replays its earlier waits as plain sleeps, and its later waits can
 * be ended.
 */
const RETRY_NOW = 'delivery-retry-now';

/**
 * Registers Retry now and returns the wait before an attempt: the pause of the schedule, which
 * Retry now ends early. The wait starts the same timer as a sleep (the Web UI shows the schedule
 * unchanged) and cancels it when ended early.
 */
function retryNowWait(): (pause: number, next: number) => Promise<void> {
  let waitingFor: number | null = null;
  let now = false;
  setHandler(
    retryNowUpdate,
    () => {
      now = true;
      return { attempt: waitingFor! };
    },
    {
      // A validator records nothing and does not run on replay, so it changes with no patch.
      validator: (request?: RetryNowRequest) => {
        if (waitingFor === null || now) {
          throw ApplicationFailure.nonRetryable(
            'The delivery is not waiting for its next attempt: an attempt is under way, or none follows.',
            RETRY_NOT_WAITING,
          );
        }
        if (request && request.attempt !== waitingFor) {
          throw ApplicationFailure.nonRetryable(
            `The delivery is not waiting for attempt ${request.attempt}: attempt ${waitingFor} is scheduled now.`,
            RETRY_NOT_WAITING,
          );
        }
      },
    },
  );
  return async (pause, next) => {
    if (!patched(RETRY_NOW)) return sleep(pause);
    waitingFor = next;
    now = false;
    try {
      await condition(() => now, pause);
    } finally {
      waitingFor = null;
    }
  };
}

type LaneRequest = Parameters<Activities['attemptInSlowLane']>[0];
type AttemptOutcome = Awaited<ReturnType<Activities['attemptInSlowLane']>>;

/**
 * One attempt, at its slot of the webhook's rate limit when it has one (docs/deliveries.md#rate-limit):
 * in the fast lane at once when it has room and the endpoint is healthy; otherwise in
 * the slow lane, where it waits in Temporal's task queue, dispatched fairly by workspace, until a
 * slot and the workspace's rate allow it. Waiting is not an attempt: the attempt is opened (and
 * its time taken) when it starts, so a retry is never early, only late when capacity is short.
 */
async function attemptInLanes(
  request: LaneRequest,
  showLane: (lane: 'fast' | 'slow') => void,
): Promise<AttemptOutcome> {
  const fast = await attemptInFastLane(request);
  if ('throttled' in fast) {
    // The webhook's rate limit gave this attempt a later slot: a timer here holds no worker slot.
    await sleep(fast.waitMs, { summary: `Attempt ${request.attempt}. ${fast.message}` });
    return attemptInLanes({ ...request, sendSlotTaken: true }, showLane);
  }
  if (!('deferred' in fast)) {
    showLane('fast');
    return fast;
  }
  showLane('slow');
  const { attemptInSlowLane } = proxyActivities<Activities>({
    ...attemptOptions,
    taskQueue: slowLaneQueue(workflowInfo().taskQueue),
    summary: `Attempt ${request.attempt}. ${fast.message}`,
  });
  return attemptInSlowLane(request);
}

/** The schedule as it ran before STATUS_ON_CHANGE: an upsert after every attempt, a result at the end. */
async function deliveryWorkflowBefore(input: DeliveryInput): Promise<DeliveryResult> {
  for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
    const pause = retryDelayMs(attempt);
    const outcome = await attemptAsActivity({
      deliveryId: input.deliveryId,
      attempt,
      retryInMs: retryAfter(attempt, pause),
    });
    upsertSearchAttributes([{ key: DeliveryStatusKey, value: outcome.status }]);
    if (outcome.done)
      return { status: outcome.status === 'delivered' ? 'delivered' : 'failed', attempts: attempt };
    await sleep(pause);
  }
  return { status: 'failed', attempts: DELIVERY_MAX_ATTEMPTS };
}

/** What an attempt is told: the pause before a retry should it fail retryably, null after the last one. */
const retryAfter = (attempt: number, pause: number) => (hasAttemptsLeft(attempt) ? pause : null);

function failed(show: (status: string) => void, attempts: number, reason: string): never {
  show('failed');
  const result: DeliveryResult = { status: 'failed', attempts };
  throw ApplicationFailure.nonRetryable(
    `Delivery failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`,
    DELIVERY_FAILED,
    result,
  );
}
