import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';

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
