import { Context } from '@temporalio/activity';
import type { AttemptOutcome, DeliveryAttempts } from '../src/deliveries/delivery-attempts';

/** One attempt of a delivery; the HTTP request is cancelled with the activity. */
export function createDeliveryActivities(deps: { attempts: DeliveryAttempts }) {
  return {
    async attemptDelivery(input: { deliveryId: string; attempt: number }): Promise<AttemptOutcome> {
      return deps.attempts.attempt(input.deliveryId, input.attempt, Context.current().cancellationSignal);
    },
  };
}
