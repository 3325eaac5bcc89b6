// When an endpoint's failures are worth telling someone, and when they disable its webhook
// (issue 37; docs/deliveries.md#when-an-endpoint-keeps-failing). Pure: the worker decides with it
// after each attempt that did not deliver, so a delivered attempt costs nothing here.

import type { AttemptSignal, EndpointState } from '../deliveries/endpoint-state';

/** What an attempt that did not deliver sets off. */
export type EndpointAlert =
  /** The endpoint has just turned Failing: its owner and Admins are told, once per episode. */
  | { kind: 'failing' }
  /** The webhook is to be disabled: `gone` for a 410, otherwise Failing for the whole period. */
  | { kind: 'disable'; reason: string; gone: boolean };

/** 410 Gone: the receiver says the address is gone for good (RFC 9110 §15.5.11). */
export const GONE_STATUS = 410;

/**
 * The alerts of one attempt that did not deliver, from the endpoint's state before and after it.
 * `autoDisableAfterMs` 0 never disables for time (a 410 still does).
 */
export function endpointAlertsOf(
  previous: EndpointState,
  next: EndpointState,
  signal: AttemptSignal,
  now: number,
  autoDisableAfterMs: number,
): EndpointAlert[] {
  const alerts: EndpointAlert[] = [];
  if (next.state === 'failing' && previous.state !== 'failing') alerts.push({ kind: 'failing' });
  if (signal.kind === 'answered' && signal.statusCode === GONE_STATUS) {
    alerts.push({
      kind: 'disable',
      gone: true,
      reason: 'The endpoint answered 410 Gone: the receiver says this address takes no more deliveries.',
    });
  } else if (next.state === 'failing' && autoDisableAfterMs > 0 && now - next.since >= autoDisableAfterMs) {
    alerts.push({
      kind: 'disable',
      gone: false,
      reason: `Every attempt failed for ${periodText(autoDisableAfterMs)} (Failing since ${new Date(next.since).toISOString()}; latest: ${next.reason ?? 'no answer'}).`,
    });
  }
  return alerts;
}

/** "5 days", "2 hours", "30 seconds": the setting as people say it. */
export function periodText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const count = seconds / size;
      return `${count} ${name}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
