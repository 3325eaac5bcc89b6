// A webhook's health in one word (issue 27, item 6: an endpoint in trouble is loud), for the
// Webhooks list and the Dashboard. Pure: it reads the numbers every webhook view already carries
// (webhook-health.ts, `health` on the view) and judges them the same way wherever it is shown.
import type { DeliveryState } from '../deliveries/delivery-state';
import type { EndpointStateName } from '../deliveries/endpoint-state';
import { successRate, type OutcomeCounts } from './webhook-health';

/** Worst first: the order the Dashboard lists them in. */
export const HEALTH_VERDICTS = ['failing', 'degraded', 'healthy', 'idle', 'disabled'] as const;
export type HealthVerdict = (typeof HEALTH_VERDICTS)[number];

/**
 * Below this success rate over the last 24 hours the webhook is failing: most of its deliveries that
 * finished there failed for good (none delivered reads 0 %).
 */
export const FAILING_BELOW_RATE = 0.5;

/** What the verdict reads: a webhook's `enabled` and the parts of its `health` that decide. */
export interface HealthFacts {
  enabled: boolean;
  health: {
    lastDelivery: { state: DeliveryState } | null;
    last24h: OutcomeCounts;
    endpoint: { state: EndpointStateName; reason: string | null } | null;
  };
}

export interface Judged {
  verdict: HealthVerdict;
  /** Why, in a few words; null when healthy, idle or disabled (the word says it all). */
  why: string | null;
}

const percent = (rate: number) => `${Math.floor(rate * 100)} %`;

/**
 * - disabled: it sends nothing, so its old failures are no alarm (the list says Disabled already).
 * - idle: no delivery and no attempt seen yet, which is neither good nor bad news.
 * - failing: its endpoint is failing (FAILING_AFTER attempts in a row did not deliver), or under
 *   FAILING_BELOW_RATE of its finished deliveries of the last 24 hours were delivered and its
 *   endpoint has not answered well since (a healthy endpoint has recovered: degraded then).
 * - degraded: its endpoint is degraded (slow, or its latest attempt did not deliver), or in the last
 *   24 hours a delivery failed for good or is retrying, or its latest delivery did not deliver.
 * - healthy: otherwise.
 */
export function judgeHealth({ enabled, health }: HealthFacts): Judged {
  if (!enabled) return { verdict: 'disabled', why: null };
  const { lastDelivery, last24h, endpoint } = health;
  if (!lastDelivery && !endpoint) return { verdict: 'idle', why: null };
  const rate = successRate(last24h);
  if (endpoint?.state === 'failing')
    return { verdict: 'failing', why: endpointWhy('failing', endpoint.reason) };
  if (rate !== null && rate < FAILING_BELOW_RATE && endpoint?.state !== 'healthy') {
    return { verdict: 'failing', why: `24 h: ${percent(rate)} delivered, ${last24h.failed} failed` };
  }
  if (endpoint?.state === 'degraded')
    return { verdict: 'degraded', why: endpointWhy('degraded', endpoint.reason) };
  if (last24h.failed > 0) return { verdict: 'degraded', why: `24 h: ${last24h.failed} failed` };
  if (last24h.retrying > 0) return { verdict: 'degraded', why: `24 h: ${last24h.retrying} retrying` };
  if (lastDelivery?.state === 'failed' || lastDelivery?.state === 'retrying') {
    return { verdict: 'degraded', why: `Last delivery ${lastDelivery.state}` };
  }
  return { verdict: 'healthy', why: null };
}

const endpointWhy = (state: EndpointStateName, reason: string | null) =>
  reason ? `Endpoint ${state}: ${reason}` : `Endpoint ${state}`;

/** The word people read; the colour beside it is never the only signal. */
export const HEALTH_VERDICT_LABELS: Readonly<Record<HealthVerdict, string>> = {
  failing: 'Failing',
  degraded: 'Degraded',
  healthy: 'Healthy',
  idle: 'No deliveries yet',
  disabled: 'Disabled',
};

/** How many of `verdicts` are each word, every word named (0 when none). */
export function tallyVerdicts(verdicts: readonly HealthVerdict[]): Record<HealthVerdict, number> {
  const counts = Object.fromEntries(HEALTH_VERDICTS.map((verdict) => [verdict, 0])) as Record<
    HealthVerdict,
    number
  >;
  for (const verdict of verdicts) counts[verdict] += 1;
  return counts;
}

/** Counts per word as shown: worst first, the words no webhook has left out. */
export function listVerdictCounts(
  counts: Readonly<Record<HealthVerdict, number>>,
): { verdict: HealthVerdict; count: number }[] {
  return HEALTH_VERDICTS.map((verdict) => ({ verdict, count: counts[verdict] })).filter(
    ({ count }) => count > 0,
  );
}
