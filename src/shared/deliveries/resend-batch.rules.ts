import { ValidationError } from '../app-error';

/** How far ahead of the server's clock a `since` may be (a browser's clock runs a little fast). */
export const RESEND_SINCE_CLOCK_SKEW_MS = 60_000;

/** The default of "Resend failed since …" in the web app: 24 hours before now. */
export const defaultResendSince = (now: Date): Date => new Date(now.getTime() - 24 * 60 * 60 * 1000);

/**
 * "Resend failed since …" (issue 13): `since` is an instant that has passed. Nothing can have
 * failed in the future, so a future `since` is a mistake (a wrong year, a time zone), not an empty
 * batch: it is refused, naming the field.
 */
export function resendSince(since: string, now: Date): Date {
  const instant = new Date(since);
  if (Number.isNaN(instant.getTime())) {
    throw ValidationError.of('since must be an ISO 8601 date-time.', 'resendSinceInvalid', ['since']);
  }
  if (instant.getTime() > now.getTime() + RESEND_SINCE_CLOCK_SKEW_MS) {
    throw ValidationError.of('since must not lie in the future.', 'resendSinceInFuture', ['since']);
  }
  return instant;
}
