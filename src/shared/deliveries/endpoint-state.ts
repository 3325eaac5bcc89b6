// An endpoint's state as its attempts show it (issue 23): healthy, degraded or failing, with the
// reason and since when. The owner sees it beside the webhook; the worker serves a healthy endpoint's
// attempts in the fast lane, as many at once as its window allows (endpoint-window.ts), and every
// other endpoint's in the slow lane (docs/capacity.md). Pure: the worker,
// the server and the web app use it.

import { DELIVERY_MAX_ATTEMPTS } from '../limits';
import { classifyAttempt } from './retry-policy';

export const ENDPOINT_STATES = ['healthy', 'degraded', 'failing'] as const;
export type EndpointStateName = (typeof ENDPOINT_STATES)[number];

export interface EndpointState {
  state: EndpointStateName;
  /** Why it is not healthy: the latest failing attempt's message. */
  reason: string | null;
  /** When it entered this state (epoch ms). */
  since: number;
  /** Attempts in a row that did not deliver. */
  failuresInARow: number;
}

/** After this many attempts in a row that did not deliver, the endpoint is failing. */
export const FAILING_AFTER = 3;

/** What one attempt that reached the network says about its endpoint. */
export type AttemptSignal =
  | { kind: 'answered'; delivered: boolean; statusCode: number; message: string; durationMs: number }
  | { kind: 'timeout'; message: string }
  | { kind: 'no-response'; message: string };

/** An endpoint never attempted, or not since this process started: healthy until it shows otherwise. */
export const UNKNOWN_ENDPOINT: EndpointState = {
  state: 'healthy',
  reason: null,
  since: 0,
  failuresInARow: 0,
};

/**
 * The endpoint's state after one more attempt. Delivered: healthy, however slowly it answered within
 * the spec's 5 s timeout (issue 33: a slow receiver is not a broken one; how many of its attempts run
 * at once is its window's business). Not delivered (an error status, a timeout, no response):
 * degraded, and failing after FAILING_AFTER in a row. `since` moves only when the state changes.
 */
export function nextEndpointState(previous: EndpointState, signal: AttemptSignal, at: number): EndpointState {
  const delivered = signal.kind === 'answered' && signal.delivered;
  const failuresInARow = delivered ? 0 : previous.failuresInARow + 1;
  let state: EndpointStateName;
  let reason: string | null;
  if (delivered) {
    state = 'healthy';
    reason = null;
  } else {
    state = failuresInARow >= FAILING_AFTER ? 'failing' : 'degraded';
    reason = signal.message;
  }
  return { state, reason, since: state === previous.state ? previous.since || at : at, failuresInARow };
}

/**
 * Only a healthy endpoint's attempts run in the fast lane, as many at once as its window allows
 * (endpoint-window.ts); once an attempt failed, the endpoint's attempts wait in the slow lane and its
 * new deliveries are held, until one delivers again. A slow receiver that timed out once is healthy
 * again with the next of its attempts under way that delivers, with its window shrunk.
 */
export const servedByFastLane = (endpoint: EndpointState) => endpoint.state === 'healthy';

/** What the owner reads beside the webhook. */
export const ENDPOINT_STATE_LABELS: Record<EndpointStateName, string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failing: 'Failing',
};

/**
 * Whether the failure an endpoint's `reason` names is retried (docs/deliveries.md#what-a-receiver-gets),
 * so its Health text promises retries only where they come: a timeout, no response, 5xx, 408, 425 or
 * 429 are retried; another answer (400, 401, 404, 410, 422, …) fails its delivery at once, for good.
 * `reason` is the attempt's signal message, `<status> <text>` for an answer (delivery-attempts.ts).
 */
function failureIsRetried(reason: string): boolean {
  const status = /^(\d{3})\b/.exec(reason)?.[1];
  if (status === undefined) return true; // a timeout or no response: retried
  return classifyAttempt({ kind: 'response', statusCode: Number(status), statusText: '' }) === 'retryable';
}

/**
 * What the state means for the owner's deliveries, in the Health dialog: retries are promised only
 * where the latest failure is one that is retried (a timeout, no response, 5xx, 408, 425, 429);
 * another answer (400, 401, 404, 410…) fails its delivery at once, for good.
 */
export function endpointMeaning(endpoint: Pick<EndpointState, 'state' | 'reason'>): string {
  if (endpoint.state === 'healthy') {
    return (
      'Its latest attempt delivered. A receiver that answers slowly (within the 5 s timeout) gets as ' +
      'many deliveries at once as its answers allow.'
    );
  }
  const retried = endpoint.reason === null || failureIsRetried(endpoint.reason);
  const what =
    endpoint.state === 'failing'
      ? `${FAILING_AFTER} attempts in a row did not deliver: check the receiver.`
      : 'Its latest attempt did not deliver.';
  if (retried) {
    return (
      `${what} That failure is retried: its deliveries are retried on their schedule (up to ` +
      `${DELIVERY_MAX_ATTEMPTS} attempts each) and wait in the slow lane, so they may arrive later, until an ` +
      'attempt delivers again.'
    );
  }
  return (
    `${what} Its answer (${endpoint.reason}) is not retried: each delivery it answers so fails at once, ` +
    'for good. Fix the receiver, then resend them (Resend failed since…). New deliveries still go ' +
    'out, in the slow lane, until one delivers again.'
  );
}
