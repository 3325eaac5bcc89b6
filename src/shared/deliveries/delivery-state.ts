// Retrying as its own state (issue 27, item 1). The spec has four statuses, and a Failed delivery
// whose retry schedule still has an attempt to run stays Failed (docs/deliveries.md#the-delivery-log:
// "Failed (retries pending)"). People need to tell it from a Failed one that is over, so every
// surface shows a fifth, derived state beside the status: `retrying` while a next attempt is
// scheduled, `failed` once none follows. The kept counts use the same split
// (`delivery_count_state` in migration 1764666000000-delivery-counts). Pure: the server, the web
// app and the workflows read the same rule.

/** The spec's four statuses of a delivery. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
export type DeliveryStatusValue = (typeof DELIVERY_STATUSES)[number];

/**
 * What a delivery is doing now: its status, with Failed split in two. `retrying`: Failed, and the
 * next attempt of its schedule runs at `nextAttemptAt`. `failed`: Failed for good, no attempt follows.
 */
export const DELIVERY_STATES = ['pending', 'sending', 'delivered', 'retrying', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The two fields the state is derived from (a delivery row, or its view with an ISO string). */
export interface StatusAndNextAttempt {
  status: DeliveryStatusValue;
  nextAttemptAt: Date | string | null;
}

/**
 * True while a Failed delivery has its next attempt scheduled (docs/deliveries.md#retrying: "Failed
 * (retries pending)").
 */
export const isRetrying = (delivery: StatusAndNextAttempt): boolean =>
  delivery.status === 'failed' && delivery.nextAttemptAt !== null;

export function deliveryState(delivery: StatusAndNextAttempt): DeliveryState {
  return isRetrying(delivery) ? 'retrying' : delivery.status;
}

/**
 * The deliveries a state filter matches, in the columns the log stores: the status, and whether a
 * next attempt is scheduled (`null`: either). `state=failed` is Failed for good; the spec's
 * `status=failed` still matches both.
 */
export function stateCondition(state: DeliveryState): {
  status: DeliveryStatusValue;
  nextAttemptScheduled: boolean | null;
} {
  if (state === 'retrying') return { status: 'failed', nextAttemptScheduled: true };
  if (state === 'failed') return { status: 'failed', nextAttemptScheduled: false };
  return { status: state, nextAttemptScheduled: null };
}

/**
 * Retry now brings a retrying delivery's next attempt forward; any other delivery has no attempt
 * waiting to be brought forward. The reason it is refused, or null when it may run.
 */
export function retryNowRefusal(delivery: StatusAndNextAttempt): string | null {
  switch (deliveryState(delivery)) {
    case 'retrying':
      return null;
    case 'failed':
      return 'This delivery failed for good: no attempt of its schedule is left to bring forward. Resend it instead.';
    case 'delivered':
      return 'This delivery was delivered: no attempt follows.';
    default:
      return 'This delivery’s attempt is under way: Retry now applies while it waits for its next attempt.';
  }
}
