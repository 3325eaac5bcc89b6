import { MockActivityEnvironment } from '@temporalio/testing';
import type { DeliveryLanes } from '../src/deliveries/capacity/delivery-lanes';
import type { AttemptRequest, DeliveryAttempts } from '../src/deliveries/engine/delivery-attempts';
import { createDeliveryActivities } from './delivery.activities';

/** The activity records the workflow's retry decision; it only fills one in for older workflows. */
describe('attemptDelivery', () => {
  const outcome = { done: false, status: 'failed' as const, statusCode: 503, responseMessage: 'Busy' };

  async function requestOf(
    input: Parameters<ReturnType<typeof createDeliveryActivities>['attemptDelivery']>[0],
  ) {
    const seen: AttemptRequest[] = [];
    const attempts = { attempt: async (request: AttemptRequest) => (seen.push(request), outcome) };
    const { attemptDelivery } = createDeliveryActivities({
      attempts: attempts as unknown as DeliveryAttempts,
      lanes: {} as DeliveryLanes,
    });
    await new MockActivityEnvironment().run(attemptDelivery, input);
    return seen[0];
  }

  it('passes the workflow’s decision on as it is', async () => {
    expect(await requestOf({ deliveryId: 'd', attempt: 3, retryInMs: 1234 })).toEqual({
      deliveryId: 'd',
      attempt: 3,
      retryInMs: 1234,
    });
    expect(await requestOf({ deliveryId: 'd', attempt: 3, retryInMs: null })).toMatchObject({
      retryInMs: null,
    });
  });

  it('follows the schedule for attempts scheduled by a workflow that did not pass one', async () => {
    expect(await requestOf({ deliveryId: 'd', attempt: 1 })).toMatchObject({ retryInMs: 10_000 });
    expect(await requestOf({ deliveryId: 'd', attempt: 9 })).toMatchObject({ retryInMs: 2_560_000 });
    expect(await requestOf({ deliveryId: 'd', attempt: 10 })).toMatchObject({ retryInMs: null });
  });
});
