import type { Pool } from 'pg';
import { sharedCounter } from './shared-counter';
import { BurstyRateLimiter, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A quota as a token bucket: a steady rate, and a reserve for bursts that refills over BURST_WINDOW_S. */
export interface QuotaLimits {
  perSecond: number;
  burst: number;
}

/** The burst reserve refills over this many seconds. */
export const BURST_WINDOW_S = 10;

/** What one request's consumption says: allowed or not, and what the RateLimit headers tell. */
export interface QuotaDecision {
  /** The quota's name in the RateLimit headers (`key`, `workspace`, `sign-in`, …). */
  name: string;
  allowed: boolean;
  /** Requests per window (the steady rate). */
  limit: number;
  windowSeconds: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** When refused: seconds before a request can succeed. */
  retryAfterSeconds?: number;
  /** When refused: milliseconds before a request can succeed (what retryAfterSeconds rounds up). */
  msBeforeNext?: number;
}

/**
 * A request quota counted in PostgreSQL, so every API process shares it (rate-limiter-flexible:
 * its PostgreSQL store, and BurstyRateLimiter for a steady rate plus a burst reserve, which acts as
 * a token bucket). A key over its quota is blocked in this process's memory for the rest of its
 * window, so a flood costs the database nothing more; should the database fail, a per-process count
 * in memory stands in.
 */
export class RequestQuota {
  private readonly limiter: Pick<BurstyRateLimiter, 'consume'>;

  constructor(
    readonly name: string,
    readonly limits: QuotaLimits,
    pool: Pool,
  ) {
    const store = (suffix: string, points: number, duration: number): RateLimiterAbstract =>
      sharedCounter(pool, {
        keyPrefix: `${name}${suffix}`,
        points,
        duration,
        clearExpired: true,
        inMemoryBlockOnConsumed: points,
        inMemoryBlockDuration: 1,
        insurance: true,
      });
    const steady = store('', limits.perSecond, 1);
    this.limiter =
      limits.burst > 0
        ? new BurstyRateLimiter(steady, store('-burst', limits.burst, BURST_WINDOW_S))
        : steady;
  }

  async consume(key: string): Promise<QuotaDecision> {
    const base = { name: this.name, limit: this.limits.perSecond, windowSeconds: 1 };
    try {
      const taken = await this.limiter.consume(key);
      return {
        ...base,
        allowed: true,
        remaining: Math.max(0, taken.remainingPoints),
        resetSeconds: Math.ceil(taken.msBeforeNext / 1000),
      };
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      const retryAfterSeconds = Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
      return {
        ...base,
        allowed: false,
        remaining: 0,
        resetSeconds: retryAfterSeconds,
        retryAfterSeconds,
        msBeforeNext: refused.msBeforeNext,
      };
    }
  }
}
