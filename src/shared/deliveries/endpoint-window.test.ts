import type { AttemptSignal } from './endpoint-state';
import {
  nextWindow,
  openWindow,
  windowCapacity,
  windowSignalOf,
  windowWanted,
  type EndpointWindow,
  type WindowLimits,
} from './endpoint-window';

const limits: WindowLimits = { initial: 5, ceiling: 500 };
const answered = (statusCode: number, delivered = statusCode < 300): AttemptSignal => ({
  kind: 'answered',
  delivered,
  statusCode,
  message: String(statusCode),
  durationMs: 4900,
});

/**
 * A window kept full: every attempt of a round trip enters (the last fills it), more are turned away
 * meanwhile, then each delivers.
 */
function fullRoundTrips(window: EndpointWindow, trips: number): EndpointWindow {
  let sut = window;
  for (let trip = 0; trip < trips; trip++) {
    const enteredAt = trip * 4900;
    const inFlight = windowCapacity(sut);
    sut = windowWanted(sut, enteredAt + 1);
    for (let i = 0; i < inFlight; i++)
      sut = nextWindow(
        sut,
        {
          signal: 'delivered',
          enteredAt,
          filled: i === inFlight - 1,
          durationMs: 4900,
          at: enteredAt + 4900,
        },
        limits,
      );
  }
  return sut;
}

describe('windowSignalOf', () => {
  it('reads a delivery as one more taken, timeouts, no response, 429 and 503 as overload, other answers as nothing', () => {
    expect(windowSignalOf(answered(200))).toBe('delivered');
    expect(windowSignalOf(answered(204))).toBe('delivered');
    expect(windowSignalOf(answered(429))).toBe('overloaded');
    expect(windowSignalOf(answered(503))).toBe('overloaded');
    expect(windowSignalOf({ kind: 'timeout', message: 'Timed out' })).toBe('overloaded');
    expect(windowSignalOf({ kind: 'no-response', message: 'ECONNREFUSED' })).toBe('overloaded');
    expect(windowSignalOf(answered(400))).toBe('neutral');
    expect(windowSignalOf(answered(500))).toBe('neutral');
    expect(windowSignalOf(answered(410))).toBe('neutral');
  });
});

describe('nextWindow', () => {
  it('starts a stranger at the initial window', () => {
    expect(windowCapacity(openWindow(limits))).toBe(5);
  });

  it('doubles each full round trip until the ceiling: 4.9 s answers at 50/s get the ~250 in flight they need in six trips', () => {
    expect(windowCapacity(fullRoundTrips(openWindow(limits), 1))).toBe(10);
    expect(windowCapacity(fullRoundTrips(openWindow(limits), 6))).toBe(320);
    expect(windowCapacity(fullRoundTrips(openWindow(limits), 9))).toBe(500);
  });

  it('does not grow for an endpoint whose window never held anything back', () => {
    let sut = openWindow(limits);
    const quiet = { signal: 'delivered' as const, filled: false, durationMs: 30 };
    for (let i = 0; i < 100; i++) sut = nextWindow(sut, { ...quiet, enteredAt: i, at: i + 30 }, limits);
    expect(windowCapacity(sut)).toBe(5);
    // Turned away before this attempt entered: not its doing.
    sut = windowWanted(sut, 200);
    sut = nextWindow(sut, { ...quiet, enteredAt: 201, at: 231 }, limits);
    expect(windowCapacity(sut)).toBe(5);
    // Turned away while it was out, or it took the last place: the window was what held deliveries back.
    sut = windowWanted(sut, 300);
    sut = nextWindow(sut, { ...quiet, enteredAt: 290, at: 320 }, limits);
    expect(windowCapacity(sut)).toBe(6);
    sut = nextWindow(sut, { ...quiet, filled: true, enteredAt: 400, at: 430 }, limits);
    expect(windowCapacity(sut)).toBe(7);
  });

  it('shrinks to 0.7 on overload once per round trip, then climbs back a sixteenth of itself per round trip', () => {
    const grown = fullRoundTrips(openWindow(limits), 6); // 320
    const timedOut = {
      signal: 'overloaded' as const,
      enteredAt: 95_000,
      filled: false,
      durationMs: 5000,
      at: 100_000,
    };
    const shrunk = nextWindow(grown, timedOut, limits);
    expect(windowCapacity(shrunk)).toBe(224);
    // The other attempts of the same overload end within the round trip: no further shrinking.
    expect(nextWindow(shrunk, { ...timedOut, at: 104_999 }, limits)).toBe(shrunk);
    expect(windowCapacity(nextWindow(shrunk, { ...timedOut, at: 105_000 }, limits))).toBe(156);
    // 224 + 224/16 = 238 after one full round trip, about 320 again after six.
    expect(fullRoundTrips(shrunk, 1).size).toBeCloseTo(238, 0);
    expect(windowCapacity(fullRoundTrips(shrunk, 6))).toBeGreaterThanOrEqual(310);
  });

  it('climbs by at least one per round trip when small', () => {
    const small = { ...openWindow(limits), size: 4, threshold: 4 };
    expect(fullRoundTrips(small, 1).size).toBeCloseTo(5, 0);
  });

  it('never shrinks below one attempt, and a neutral answer changes nothing', () => {
    let sut = openWindow(limits);
    for (let i = 0; i < 10; i++)
      sut = nextWindow(
        sut,
        {
          signal: 'overloaded',
          enteredAt: i * 10_000 - 5000,
          filled: true,
          durationMs: 5000,
          at: i * 10_000,
        },
        limits,
      );
    expect(windowCapacity(sut)).toBe(1);
    expect(
      nextWindow(
        sut,
        { signal: 'neutral', enteredAt: 199_997, filled: true, durationMs: 3, at: 200_000 },
        limits,
      ),
    ).toBe(sut);
  });
});
