// Deliveries by outcome over time (the Dashboard's and a webhook's chart): which buckets a range
// has, and the database's per-bucket counts laid onto them with the empty buckets as zeros. Pure:
// the server counts, the web app draws, both read the same ranges.
import { DAY_MS, HOUR_MS, startOfUtc } from '../utc-time';
import { windowHealth, type OutcomeCounts, type WindowHealth } from '../webhooks/webhook-health';

export const STATS_RANGES = ['24h', '7d', '30d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];
export type StatsBucketUnit = 'hour' | 'day';

const UNIT_MS = { hour: HOUR_MS, day: DAY_MS } as const satisfies Record<StatsBucketUnit, number>;

/** Hourly bars for a day, daily bars for longer: never more than 30 bars. */
const RANGE_BUCKETS: Readonly<Record<StatsRange, { unit: StatsBucketUnit; count: number }>> = {
  '24h': { unit: 'hour', count: 24 },
  '7d': { unit: 'day', count: 7 },
  '30d': { unit: 'day', count: 30 },
};

/** The buckets of a range: the last one is the current hour or UTC day, still filling. */
export interface StatsWindow {
  range: StatsRange;
  unit: StatsBucketUnit;
  /** The start of each bucket, oldest first. */
  starts: Date[];
  /** The start of the first bucket (counted from, inclusive). */
  from: Date;
  /** The end of the last bucket (counted to, exclusive). */
  to: Date;
}

export function statsWindow(range: StatsRange, now: Date): StatsWindow {
  const { unit, count } = RANGE_BUCKETS[range];
  const size = UNIT_MS[unit];
  const current = startOfUtc(now, size);
  const starts = Array.from({ length: count }, (_, index) => new Date(current - (count - 1 - index) * size));
  return { range, unit, starts, from: starts[0]!, to: new Date(current + size) };
}

export interface StatsBucket extends OutcomeCounts {
  /** ISO 8601: the bucket's first instant. */
  start: string;
}

export interface DeliveryStats {
  range: StatsRange;
  bucket: StatsBucketUnit;
  from: string;
  to: string;
  webhookId: string | null;
  buckets: StatsBucket[];
  totals: WindowHealth;
}

/** A bucket's counts as the database groups them (by the bucket's start). */
export interface CountedBucket extends OutcomeCounts {
  start: Date;
}

/**
 * Every bucket of the window, oldest first, with the counted ones filled in and the others zero; a
 * count outside the window's buckets is dropped rather than shown in a wrong bar.
 */
export function fillBuckets(
  window: StatsWindow,
  counted: readonly CountedBucket[],
  webhookId: string | null,
): DeliveryStats {
  const byStart = new Map(counted.map((row) => [row.start.getTime(), row]));
  const buckets = window.starts.map((start): StatsBucket => {
    const row = byStart.get(start.getTime());
    return {
      start: start.toISOString(),
      delivered: row?.delivered ?? 0,
      failed: row?.failed ?? 0,
      retrying: row?.retrying ?? 0,
      inFlight: row?.inFlight ?? 0,
    };
  });
  const sum = (pick: (bucket: StatsBucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  return {
    range: window.range,
    bucket: window.unit,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    webhookId,
    buckets,
    totals: windowHealth({
      delivered: sum((b) => b.delivered),
      failed: sum((b) => b.failed),
      retrying: sum((b) => b.retrying),
      inFlight: sum((b) => b.inFlight),
    }),
  };
}
