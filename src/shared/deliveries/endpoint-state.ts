// An endpoint's state as its attempts show it (issue 23): healthy, degraded or failing, with the
// reason and since when. The owner sees it beside the webhook; the worker serves a healthy endpoint's
// attempts in the fast lane, as many at once as its window allows (endpoint-window.ts), and every
// other endpoint's in the slow lane (docs/capacity.md). Pure: the worker,
// the server and the web app use it.

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
