// How many attempts one endpoint may have in flight at once in a worker's fast lane (issue 33): a
// window grown by the answers it gives and shrunk by the signs that it is overloaded, as TCP moves its
// congestion window (slow start, then additive increase / multiplicative decrease, with CUBIC's
// gentler decrease and a faster climb back, since a round trip here can be five seconds). A receiver that answers well
// but slowly (4.9 s, inside the spec's 5 s timeout) gets the requests in flight its latency needs —
// fifty a second at 4.9 s is about 250 at once — while one that times out or asks us to slow down gets
// fewer. Pure: the worker's lane budget applies it, the tests drive it with made-up times.

import type { AttemptSignal } from './endpoint-state';

export interface WindowLimits {
  /** The window of an endpoint this worker has not heard from: what it may risk on a stranger. */
  initial: number;
  /** The most an endpoint's window grows to, however well it answers (per webhook, per worker). */
  ceiling: number;
}

export interface EndpointWindow {
  /** Attempts allowed in flight; fractional, as additive increase adds 1/size per answer. */
  size: number;
  /** Below it the window doubles each round trip (slow start); above it, it grows by one. */
  threshold: number;
  /** When it last shrank (epoch ms): at most once per round trip, as one overload ends many attempts. */
  shrunkAt: number;
  /** When it last turned an attempt or a delivery away (epoch ms): there was more to send than it let through. */
  wantedAt: number;
}

/** How an attempt's end moves its endpoint's window. */
export type WindowSignal = 'delivered' | 'overloaded' | 'neutral';

/** Status codes that say "fewer, please": Too Many Requests and Service Unavailable. */
const OVERLOAD_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * What an attempt says about the endpoint's capacity: a delivery says it took one more; a timeout,
 * no response, 429 or 503 that it is overloaded (or gone: the window shrinks either way); any other
 * answer (a 400, a 500) says nothing about how many it can take at once.
 */
export function windowSignalOf(signal: AttemptSignal): WindowSignal {
  if (signal.kind === 'answered') {
    if (signal.delivered) return 'delivered';
    return OVERLOAD_STATUSES.has(signal.statusCode) ? 'overloaded' : 'neutral';
  }
  return 'overloaded';
}

export const openWindow = (limits: WindowLimits): EndpointWindow => ({
  size: limits.initial,
  threshold: limits.ceiling,
  shrunkAt: Number.NEGATIVE_INFINITY,
  wantedAt: Number.NEGATIVE_INFINITY,
});

/** The window turned an attempt or a delivery away at `at`. */
export const windowWanted = (window: EndpointWindow, at: number): EndpointWindow => ({
  ...window,
  wantedAt: at,
});

/** The attempts the window lets in flight now. */
export const windowCapacity = (window: EndpointWindow) => Math.max(1, Math.floor(window.size));

/** The shortest time between two shrinks, whatever the endpoint's round trip. */
const MIN_SHRINK_GAP_MS = 1000;
/** What an overload keeps of the window (CUBIC's β): a receiver near the timeout loses less each time. */
const SHRINK_TO = 0.7;
/**
 * Above the threshold, the window grows by this share of itself per round trip (at least one): with a
 * 5 s round trip, TCP's one per round trip would take minutes to win back what one timeout took.
 */
const CLIMB_PER_ROUND_TRIP = 1 / 16;

export interface AttemptEnd {
  signal: WindowSignal;
  /** When the attempt entered (epoch ms). */
  enteredAt: number;
  /** Whether it took the window's last place when it entered. */
  filled: boolean;
  /** How long the attempt took (ms): one round trip. */
  durationMs: number;
  at: number;
}

/**
 * The window after one more attempt ended. A delivery grows it — by one while below the threshold
 * (so it doubles each round trip), by a sixteenth of itself per round trip above it (at least one) —
 * but only when the window was what held deliveries back while the attempt was out (it took the last
 * place, or something was turned away since it entered): an endpoint that never needed its window
 * proves nothing about a larger one (RFC 7661's reasoning), so a quiet endpoint that dies later has
 * few attempts to lose. An overload shrinks it to 0.7 of itself and lowers the threshold there, at
 * most once per round trip.
 */
export function nextWindow(window: EndpointWindow, end: AttemptEnd, limits: WindowLimits): EndpointWindow {
  if (end.signal === 'delivered') {
    if (!end.filled && window.wantedAt < end.enteredAt) return window;
    const growth =
      window.size < window.threshold ? 1 : Math.max(1, window.size * CLIMB_PER_ROUND_TRIP) / window.size;
    return { ...window, size: Math.min(limits.ceiling, window.size + growth) };
  }
  if (end.signal === 'overloaded') {
    if (end.at - window.shrunkAt < Math.max(MIN_SHRINK_GAP_MS, end.durationMs)) return window;
    const size = Math.max(1, Math.floor(window.size * SHRINK_TO));
    return { ...window, size, threshold: size, shrunkAt: end.at };
  }
  return window;
}
