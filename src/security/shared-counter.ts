import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface SharedCounterOptions {
  /** Names the count's keys in the table; each counter its own. */
  keyPrefix: string;
  points: number;
  /** Seconds a count lasts from its first point. */
  duration: number;
  /** Delete expired rows on a timer (off where a lock must outlive its count's row). */
  clearExpired: boolean;
  /** Count in this process's memory while PostgreSQL cannot be reached, rather than failing open or shut. */
  insurance?: boolean;
  /** Refuse in memory, without a round trip, once this many points are spent (for this many seconds). */
  inMemoryBlockOnConsumed?: number;
  inMemoryBlockDuration?: number;
}

/**
 * A count shared by every API process, in the `rate_limits` table its migration creates: the
 * quotas, the sign-in and sign-up throttles, failed key lookups and OAuth registrations.
 */
export function sharedCounter(pool: Pool, options: SharedCounterOptions): RateLimiterPostgres {
  const { keyPrefix, points, duration } = options;
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: 'pool',
    tableName: 'rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: options.clearExpired,
    keyPrefix,
    points,
    duration,
    ...(options.inMemoryBlockOnConsumed === undefined
      ? {}
      : { inMemoryBlockOnConsumed: options.inMemoryBlockOnConsumed }),
    ...(options.inMemoryBlockDuration === undefined
      ? {}
      : { inMemoryBlockDuration: options.inMemoryBlockDuration }),
    ...(options.insurance
      ? { insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) }
      : {}),
  });
}

/**
 * Spends one point of each count in turn (a counter and the key counted); at the first that has
 * none left, throws what `refusal` makes of the whole seconds until it has one again and which
 * count it was (its index).
 */
export async function spendEach(
  counts: readonly (readonly [RateLimiterAbstract, string])[],
  refusal: (seconds: number, index: number) => Error,
): Promise<void> {
  for (const [index, [counter, key]] of counts.entries()) {
    try {
      await counter.consume(key);
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      throw refusal(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)), index);
    }
  }
}
