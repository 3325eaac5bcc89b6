// The two lanes a delivery attempt can run in (docs/capacity.md). Pure:
// the workflow and the worker must agree on the slow lane's task queue.

/** The task queue of the slow lane, beside the service's own. */
export const slowLaneQueue = (taskQueue: string) => `${taskQueue}-slow-lane`;

/** Why an attempt was sent to the slow lane instead of running in the fast lane at once. */
export type Deferral =
  /** The endpoint's latest attempts timed out, failed or answered slowly. */
  | 'endpoint-unhealthy'
  /** The endpoint already has its share of the fast lane in flight. */
  | 'endpoint-share'
  /** The workspace already has its share of the fast lane in flight. */
  | 'workspace-share'
  /** Every fast-lane slot of this worker is taken. */
  | 'lane-full';

export const DEFERRALS: readonly Deferral[] = [
  'endpoint-unhealthy',
  'endpoint-share',
  'workspace-share',
  'lane-full',
];

/** A fast-lane attempt that did not start: no attempt was made, the slow lane makes it. */
export interface DeferredAttempt {
  deferred: Deferral;
  /** For the Web UI: why, in words. */
  message: string;
}

/**
 * A fast-lane attempt that did not start because its webhook's rate limit has a later slot for it
 * (docs/deliveries.md#rate-limit): the slot is taken; the workflow sleeps `waitMs`, then makes the
 * attempt (`sendSlotTaken`), with no slot of any lane held while it waits.
 */
export interface ThrottledAttempt {
  throttled: true;
  waitMs: number;
  /** For the Web UI: the wait, in words. */
  message: string;
}
