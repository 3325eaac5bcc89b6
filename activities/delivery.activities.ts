import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  DeliveryMissingError,
  type AttemptOutcome,
  type DeliveryAttempts,
} from '../src/deliveries/delivery-attempts';

/** One attempt of a delivery; the HTTP request is cancelled with the activity. */
export function createDeliveryActivities(deps: { attempts: DeliveryAttempts }) {
  return {
    async attemptDelivery(input: { deliveryId: string; attempt: number }): Promise<AttemptOutcome> {
      try {
        return await deps.attempts.attempt(
          input.deliveryId,
          input.attempt,
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
