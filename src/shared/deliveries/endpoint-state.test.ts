import {
  FAILING_AFTER,
  noAnswerYet,
  nextEndpointState,
  servedByFastLane,
  SLOW_ANSWER_MS,
  UNKNOWN_ENDPOINT,
  type AttemptSignal,
  type EndpointState,
} from './endpoint-state';

const ok = (durationMs = 20): AttemptSignal => ({
  kind: 'answered',
  delivered: true,
  statusCode: 200,
  message: 'OK',
  durationMs,
});
const timeout: AttemptSignal = { kind: 'timeout', message: 'Timed out: no response within 5 s' };
const refused: AttemptSignal = { kind: 'no-response', message: 'No response: connect ECONNREFUSED' };
const unavailable: AttemptSignal = {
  kind: 'answered',
  delivered: false,
  statusCode: 503,
  message: 'Service Unavailable',
  durationMs: 3,
};

function run(signals: AttemptSignal[], start: EndpointState = UNKNOWN_ENDPOINT): EndpointState {
  return signals.reduce(
    (state, signal, index) => nextEndpointState(state, signal, 1000 * (index + 1)),
    start,
  );
}

describe('nextEndpointState', () => {
  it('is healthy while attempts deliver promptly, and stays in the fast lane', () => {
    const state = run([ok(), ok(SLOW_ANSWER_MS)]);
    expect(state).toEqual({ state: 'healthy', reason: null, since: 1000, failuresInARow: 0 });
    expect(servedByFastLane(state)).toBe(true);
  });

  it('is degraded after one timeout, and leaves the fast lane at once', () => {
    const state = run([ok(), timeout]);
    expect(state).toMatchObject({
      state: 'degraded',
      reason: timeout.message,
      since: 2000,
      failuresInARow: 1,
    });
    expect(servedByFastLane(state)).toBe(false);
  });

  it(`is failing after ${FAILING_AFTER} attempts in a row that did not deliver, since the third`, () => {
    const state = run([ok(), refused, unavailable, timeout]);
    expect(state).toMatchObject({
      state: 'failing',
      reason: timeout.message,
      since: 4000,
      failuresInARow: 3,
    });
    // Still failing: the time it began stays.
    expect(nextEndpointState(state, refused, 9000)).toMatchObject({ state: 'failing', since: 4000 });
  });

  it('is degraded when it delivers slowly, with how slowly as the reason', () => {
    const state = run([ok(4900)]);
    expect(state).toMatchObject({
      state: 'degraded',
      reason: 'Answered slowly: in 4.9 s',
      failuresInARow: 0,
    });
    expect(servedByFastLane(state)).toBe(false);
  });

  it('comes back to healthy with one prompt delivery, whatever came before', () => {
    const state = run([timeout, timeout, timeout, timeout, ok()]);
    expect(state).toEqual({ state: 'healthy', reason: null, since: 5000, failuresInARow: 0 });
  });

  it('is degraded as soon as an attempt of a healthy endpoint has waited a second for its answer', () => {
    const waiting = noAnswerYet(run([ok()]), 5000);
    expect(waiting).toEqual({
      state: 'degraded',
      reason: 'No answer within 1 s',
      since: 5000,
      failuresInARow: 0,
    });
    // Its end then says what it was; a slow success keeps it out of the fast lane.
    expect(nextEndpointState(waiting, timeout, 9000)).toMatchObject({
      state: 'degraded',
      reason: timeout.message,
      since: 5000,
    });
    expect(nextEndpointState(waiting, ok(1500), 6500)).toMatchObject({ state: 'degraded', since: 5000 });
    // An endpoint that is not healthy is left as it is.
    const failing = run([timeout, timeout, timeout]);
    expect(noAnswerYet(failing, 9999)).toBe(failing);
  });
});
