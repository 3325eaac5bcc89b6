import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DeliveryLanes, FastLaneOutcome, LaneRequest } from '../src/deliveries/capacity/delivery-lanes';
import {
  DeliveryMissingError,
  type AttemptOutcome,
  type AttemptRequest,
  type DeliveryAttempts,
} from '../src/deliveries/engine/delivery-attempts';
import { hasAttemptsLeft, retryDelayMs } from '../src/shared/deliveries/retry-policy';

/** An attempt as the workflow schedules it; `retryInMs` is absent in attempts scheduled before it was passed. */
export type AttemptDeliveryInput = Omit<AttemptRequest, 'retryInMs'> & { retryInMs?: number | null };

/**
 * An attempt a workflow scheduled before it passed its decision (in flight during the upgrade):
 * the schedule that workflow runs, so its delivery is recorded as it will go on.
 */
const scheduleBefore = (attempt: number) => (hasAttemptsLeft(attempt) ? retryDelayMs(attempt) : null);

/** Retrying cannot bring a deleted row back: end the workflow instead of retrying forever. */
async function failingForGoodWhenMissing<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DeliveryMissingError) {
      throw ApplicationFailure.nonRetryable(error.message, 'DeliveryMissing');
    }
    throw error;
  }
}

/** One attempt of a delivery; the HTTP request is cancelled with the activity. */
export function createDeliveryActivities(deps: { attempts: DeliveryAttempts; lanes: DeliveryLanes }) {
  return {
    /** Deliveries started before the lanes (issue 23): the attempt at once, outside any budget. */
    async attemptDelivery(input: AttemptDeliveryInput): Promise<AttemptOutcome> {
      return failingForGoodWhenMissing(() =>
        deps.attempts.attempt(
          {
            deliveryId: input.deliveryId,
            attempt: input.attempt,
            retryInMs: input.retryInMs === undefined ? scheduleBefore(input.attempt) : input.retryInMs,
          },
          Context.current().cancellationSignal,
        ),
      );
    },
    /** The fast lane (a local activity): the attempt now, or why the slow lane makes it instead. */
    async attemptInFastLane(input: LaneRequest): Promise<FastLaneOutcome> {
      return failingForGoodWhenMissing(() => deps.lanes.fast(input, Context.current().cancellationSignal));
    },
    /** The slow lane (an activity on the slow lane's task queue, dispatched fairly by workspace). */
    async attemptInSlowLane(input: LaneRequest): Promise<AttemptOutcome> {
      return failingForGoodWhenMissing(() => deps.lanes.slow(input, Context.current().cancellationSignal));
    },
  };
}
