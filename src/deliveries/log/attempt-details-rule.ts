// How long an attempt keeps the request it sent (docs/deliveries.md, "What is kept, for how long,
// and why"). The spec keeps the delivery record and its payload as long as the workspace; the
// request's headers and body are ours to bound, and are most of the log's size.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Attempts the sweep drops per statement: each batch is short, so it never holds locks for long. */
export const ATTEMPT_DETAILS_BATCH = 5_000;

/**
 * Attempts started before this time have kept their request for the whole window and lose it;
 * one started at it or later keeps it. Days of 24 hours: the window does not move with DST.
 */
export function attemptDetailsCutoff(now: Date, days: number): Date {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`a window of ${days} days`);
  return new Date(now.getTime() - days * DAY_MS);
}
