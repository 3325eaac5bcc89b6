import {
  endpointMeaning,
  FAILING_AFTER,
  nextEndpointState,
  servedByFastLane,
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
  it('is healthy while attempts deliver, and stays in the fast lane', () => {
    const state = run([ok(), ok(1000)]);
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
    // Still failing: the time it began stays, and its attempts wait in the slow lane.
    expect(nextEndpointState(state, refused, 9000)).toMatchObject({ state: 'failing', since: 4000 });
    expect(servedByFastLane(state)).toBe(false);
  });

  it('is healthy when it delivers slowly inside the timeout: a slow receiver is not a broken one', () => {
    const state = run([ok(4900)]);
    expect(state).toEqual({ state: 'healthy', reason: null, since: 1000, failuresInARow: 0 });
    expect(servedByFastLane(state)).toBe(true);
  });

  it('comes back to healthy with one delivery, whatever came before', () => {
    const state = run([timeout, timeout, timeout, timeout, ok(4900)]);
    expect(state).toEqual({ state: 'healthy', reason: null, since: 5000, failuresInARow: 0 });
  });
});

describe('endpointMeaning (issue 37, item 6)', () => {
  it.each([
    ['Timed out: no response within 5 s'],
    ['No response: connect ECONNREFUSED 127.0.0.1:4000'],
    ['503 Service Unavailable'],
    ['500'],
    ['408 Request Timeout'],
    ['425 Too Early'],
    ['429 Too Many Requests'],
  ])('promises retries after a failure that is retried: %s', (reason) => {
    for (const state of ['degraded', 'failing'] as const) {
      const meaning = endpointMeaning({ state, reason });
      expect(meaning).toContain('retried on their schedule');
      expect(meaning).not.toContain('not retried');
    }
  });

  it.each([
    ['400 Bad Request'],
    ['401 Unauthorized'],
    ['404 Not Found'],
    ['410 Gone'],
    ['422'],
    ['301 Moved Permanently'],
  ])('promises no retry after an answer that is not retried: %s', (reason) => {
    for (const state of ['degraded', 'failing'] as const) {
      const meaning = endpointMeaning({ state, reason });
      expect(meaning).toContain(`Its answer (${reason}) is not retried`);
      expect(meaning).not.toContain('retried on their schedule');
    }
  });

  it('says a failing endpoint failed 3 times in a row, and a healthy one delivered', () => {
    expect(endpointMeaning({ state: 'failing', reason: '400 Bad Request' })).toMatch(
      /^3 attempts in a row did not deliver/,
    );
    expect(endpointMeaning({ state: 'healthy', reason: null })).toMatch(/^Its latest attempt delivered/);
  });
});
