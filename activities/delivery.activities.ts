import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  DeliveryMissingError,
  type AttemptOutcome,
  type AttemptRequest,
  type DeliveryAttempts,
} from '../src/deliveries/delivery-attempts';
import { hasAttemptsLeft, retryDelayMs } from '../src/shared/retry-policy';

/** An attempt as the workflow schedules it; `retryInMs` is absent in attempts scheduled before it was passed. */
export type AttemptDeliveryInput = Omit<AttemptRequest, 'retryInMs'> & { retryInMs?: number | null };

/**
 * An attempt a workflow scheduled before it passed its decision (in flight during the upgrade):
 * the schedule that workflow runs, so its delivery is recorded as it will go on.
 */
const scheduleBefore = (attempt: number) => (hasAttemptsLeft(attempt) ? retryDelayMs(attempt) : null);

/** One attempt of a delivery; the HTTP request is cancelled with the activity. */
export function createDeliveryActivities(deps: { attempts: DeliveryAttempts }) {
  return {
    async attemptDelivery(input: AttemptDeliveryInput): Promise<AttemptOutcome> {
      try {
        return await deps.attempts.attempt(
          {
            deliveryId: input.deliveryId,
            attempt: input.attempt,
            retryInMs: input.retryInMs === undefined ? scheduleBefore(input.attempt) : input.retryInMs,
          },
          Context.current().cancellationSignal,
        );
      } catch (error) {
        // Retrying cannot bring a deleted row back: end the workflow instead of retrying forever.
        if (error instanceof DeliveryMissingError) {
          throw ApplicationFailure.nonRetryable(error.message, 'DeliveryMissing');
        }
        throw error;
      }
    },
  };
}
