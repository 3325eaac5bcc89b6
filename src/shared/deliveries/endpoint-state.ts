// An endpoint's state as its attempts show it (issue 23): healthy, degraded or failing, with the
// reason and since when. The owner sees it beside the webhook; the worker serves a healthy
// endpoint's attempts in the fast lane and every other endpoint's in the slow lane
// (docs/architecture.md, "Delivery capacity"). Pure: the worker, the server and the web app use it.

export const ENDPOINT_STATES = ['healthy', 'degraded', 'failing'] as const;
export type EndpointStateName = (typeof ENDPOINT_STATES)[number];

export interface EndpointState {
  state: EndpointStateName;
  /** Why it is not healthy: the latest failing attempt's message, or how slowly it answered. */
  reason: string | null;
  /** When it entered this state (epoch ms). */
  since: number;
  /** Attempts in a row that did not deliver. */
  failuresInARow: number;
}

/** An answer slower than this is not a healthy answer: it would hold a fast-lane slot that long. */
export const SLOW_ANSWER_MS = 1000;
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
 * The endpoint's state after one more attempt. Delivered within SLOW_ANSWER_MS: healthy. Delivered
 * more slowly: degraded. Not delivered (an error status, a timeout, no response): degraded, and
 * failing after FAILING_AFTER in a row. `since` moves only when the state changes.
 */
export function nextEndpointState(previous: EndpointState, signal: AttemptSignal, at: number): EndpointState {
  const delivered = signal.kind === 'answered' && signal.delivered;
  const failuresInARow = delivered ? 0 : previous.failuresInARow + 1;
  let state: EndpointStateName;
  let reason: string | null;
  if (delivered && signal.durationMs <= SLOW_ANSWER_MS) {
    state = 'healthy';
    reason = null;
  } else if (delivered) {
    state = 'degraded';
    reason = `Answered slowly: in ${(signal.durationMs / 1000).toFixed(1)} s`;
  } else {
    state = failuresInARow >= FAILING_AFTER ? 'failing' : 'degraded';
    reason = signal.message;
  }
  return { state, reason, since: state === previous.state ? previous.since || at : at, failuresInARow };
}

/**
 * An attempt of a healthy endpoint has had no answer for SLOW_ANSWER_MS: the endpoint is degraded
 * already, before the attempt's own end (up to the 5 s timeout) says more, so that the attempts
 * and deliveries that follow stop entering the fast lane seconds sooner.
 */
export function noAnswerYet(previous: EndpointState, at: number): EndpointState {
  if (previous.state !== 'healthy') return previous;
  return {
    state: 'degraded',
    reason: `No answer within ${SLOW_ANSWER_MS / 1000} s`,
    since: at,
    failuresInARow: previous.failuresInARow,
  };
}

/** Only a healthy endpoint's attempts run in the fast lane. */
export const servedByFastLane = (endpoint: EndpointState) => endpoint.state === 'healthy';

/** What the owner reads beside the webhook. */
export const ENDPOINT_STATE_LABELS: Record<EndpointStateName, string> = {
  healthy: 'Healthy',
  degraded: 'Degraded',
  failing: 'Failing',
};
