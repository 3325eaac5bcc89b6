import { proxyActivities, sleep, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { DELIVERY_MAX_ATTEMPTS } from '../src/limits';
import { retryDelayMs } from '../src/deliveries/retry-policy';
import { DeliveryStatusKey } from './search-attributes';

export interface DeliveryInput {
  deliveryId: string;
}

export const deliveryWorkflowId = (deliveryId: string) => `delivery-${deliveryId}`;

// The activity returns the receiver's verdict; Temporal retries it only when it throws
// (infrastructure: the database unreachable), never because of the receiver's answer.
const { attemptDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Delivers one event to one webhook with the spec's retry schedule: up to 10 attempts, the first
 * retry 10 s after a failure, each pause doubling, capped at one hour. Each attempt is one activity
 * (visible in the Web UI's history) and the row shows the latest outcome.
 */
export async function deliveryWorkflow(input: DeliveryInput): Promise<{ status: string; attempts: number }> {
  for (let attempt = 1; attempt <= DELIVERY_MAX_ATTEMPTS; attempt++) {
    const outcome = await attemptDelivery({ deliveryId: input.deliveryId, attempt });
    upsertSearchAttributes([{ key: DeliveryStatusKey, value: outcome.status }]);
    if (outcome.done) return { status: outcome.status, attempts: attempt };
    await sleep(retryDelayMs(attempt));
  }
  return { status: 'failed', attempts: DELIVERY_MAX_ATTEMPTS };
}
