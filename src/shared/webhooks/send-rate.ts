// A webhook's rate limit (docs/deliveries.md#rate-limit). Pure: the workflow, the worker and the
// browser agree on the bounds and on when each request of a limited webhook may leave.

/** The smallest and largest limit a webhook may have, in deliveries per second (null: no limit). */
export const WEBHOOK_RATE_LIMIT_MIN = 1;
export const WEBHOOK_RATE_LIMIT_MAX = 1000;

/** The refusal of a value out of bounds, worded alike by the service and the dialog. */
export const WEBHOOK_RATE_LIMIT_RULE = `The rate limit is a whole number of deliveries per second from ${WEBHOOK_RATE_LIMIT_MIN} to ${WEBHOOK_RATE_LIMIT_MAX}, or null for none.`;

/** What the field means, for the request schema, the view and the MCP input. */
export const WEBHOOK_RATE_LIMIT_ABOUT = 'Most deliveries a second, retries and resends too; null: none.';

/**
 * The time between two requests of a webhook limited to `perSecond`, rounded up to the microsecond
 * (PostgreSQL's timestamp precision): rounded down, `perSecond` intervals could end inside the second.
 */
export const sendIntervalMs = (perSecond: number): number => Math.ceil(1_000_000 / perSecond) / 1000;

/** The next request's time, as a limited webhook keeps it: when it may leave, and the one after it. */
export interface SendSlot {
  /** When this request may leave (epoch ms): now, or later when the webhook's earlier requests came first. */
  sendAt: number;
  /** When the request after it may leave: one interval later. */
  nextAt: number;
}

/**
 * Claims the next slot of a webhook limited to `perSecond` (a virtual scheduling clock, as GCRA
 * keeps one, with no burst): a request leaves at the webhook's next free time or now, whichever is
 * later, and moves that time on by one interval. Requests are therefore spaced by the interval and
 * never more than `perSecond` leave within any second; an idle webhook does not save up a burst.
 * `nextAt` is null for a webhook that has sent nothing yet.
 */
export function claimSendSlot(nextAt: number | null, now: number, perSecond: number): SendSlot {
  const sendAt = Math.max(now, nextAt ?? now);
  return { sendAt, nextAt: sendAt + sendIntervalMs(perSecond) };
}

/**
 * How long a request that claimed `sendAt` waits before leaving. A wait shorter than a timer's
 * worth is not waited: the workflow's timer and its next task would take longer than that.
 */
export function sendWaitMs(sendAt: number, now: number): number {
  const wait = sendAt - now;
  return wait < SEND_WAIT_MIN_MS ? 0 : Math.ceil(wait);
}

/** Below this, a request leaves at once instead of sleeping in its workflow. */
export const SEND_WAIT_MIN_MS = 5;
