import type { Pool } from 'pg';
import { sharedCounter } from './shared-counter';
import { RateLimiterRes, type RateLimiterAbstract, type RateLimiterPostgres } from 'rate-limiter-flexible';
import { settle, steadyStepOf, type SteadyRow, type SteadyStep } from './steady-chain';

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
  /**
   * The burst reserve, once the second's window is spent (by this request or before it): what is
   * left of it and when it refills. Absent while the second's window has room, which leaves the
   * reserve as it was (reading it then would cost a query per request).
   */
  burst?: { remaining: number; resetSeconds: number };
}

/**
 * A request quota counted in PostgreSQL, so every API process shares it (rate-limiter-flexible's
 * PostgreSQL store): a steady rate per second and a burst reserve that a request draws from only
 * once the second's window is spent, which acts as a token bucket (what the library's
 * BurstyRateLimiter does; done here so the reserve's remainder is known and the RateLimit field can
 * say it: with r=0 for the second, "100 more" answered 200 while the field said nothing was left).
 * A key over its quota is blocked in this process's memory for the rest of its window, so a flood
 * costs the database nothing more; should the database fail, a per-process count in memory stands in.
 */
export class RequestQuota {
  private readonly steady: RateLimiterPostgres;
  private readonly burst: Pick<RateLimiterAbstract, 'consume' | 'get'> | null;

  constructor(
    readonly name: string,
    readonly limits: QuotaLimits,
    pool: Pool,
  ) {
    const store = (suffix: string, points: number, duration: number): RateLimiterPostgres =>
      sharedCounter(pool, {
        keyPrefix: `${name}${suffix}`,
        points,
        duration,
        clearExpired: true,
        inMemoryBlockOnConsumed: points,
        inMemoryBlockDuration: 1,
        insurance: true,
      });
    this.steady = store('', limits.perSecond, 1);
    this.burst = limits.burst > 0 ? store('-burst', limits.burst, BURST_WINDOW_S) : null;
  }

  async consume(key: string): Promise<QuotaDecision> {
    return this.decide(key, this.steady.consume(key));
  }

  /**
   * This quota's step in a request's chain (src/security/steady-chain.ts): its steady window; none
   * while the key is refused from memory, which consume() answers without the database.
   */
  steadyStep(key: string): SteadyStep | null {
    return steadyStepOf(this.steady, key);
  }

  /** The decision on a request whose steady point the chain took (its row) or failed to (the error). */
  consumeTaken(key: string, taken: SteadyRow | Error): Promise<QuotaDecision> {
    return this.decide(key, settle(this.steady, key, taken));
  }

  /** The decision once the steady window has answered: the burst reserve's when it is spent. */
  private async decide(key: string, steady: Promise<RateLimiterRes>): Promise<QuotaDecision> {
    const base = { name: this.name, limit: this.limits.perSecond, windowSeconds: 1 };
    let spent: RateLimiterRes;
    try {
      const taken = await steady;
      const remaining = Math.max(0, taken.remainingPoints);
      return {
        ...base,
        allowed: true,
        remaining,
        resetSeconds: secondsOf(taken.msBeforeNext),
        // This request spent the second: say what the reserve still answers (one read, at most once
        // a second per key), so r=0 is not read as "refused until the next second".
        ...(remaining === 0 ? await this.reserveLeft(key) : {}),
      };
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      spent = refused;
    }
    // The second's window is spent: the burst reserve decides.
    let reserve: RateLimiterRes | undefined;
    let allowed = false;
    if (this.burst) {
      try {
        reserve = await this.burst.consume(key);
        allowed = true;
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        reserve = refused;
      }
    }
    const burst = reserve && {
      remaining: Math.max(0, reserve.remainingPoints),
      resetSeconds: secondsOf(reserve.msBeforeNext),
    };
    if (allowed)
      return { ...base, allowed, remaining: 0, resetSeconds: secondsOf(spent.msBeforeNext), burst };
    // Refused by both: the next second's window is the soonest a request can pass.
    const msBeforeNext = Math.min(spent.msBeforeNext, reserve?.msBeforeNext ?? spent.msBeforeNext);
    const retryAfterSeconds = Math.max(1, secondsOf(msBeforeNext));
    return {
      ...base,
      allowed: false,
      remaining: 0,
      resetSeconds: retryAfterSeconds,
      retryAfterSeconds,
      msBeforeNext,
      ...(burst ? { burst } : {}),
    };
  }

  /** The burst reserve's level, untouched: all of it when nothing drew from it in its window. */
  private async reserveLeft(key: string): Promise<Pick<QuotaDecision, 'burst'>> {
    if (!this.burst) return {};
    const level = await this.burst.get(key);
    return {
      burst: level
        ? { remaining: Math.max(0, level.remainingPoints), resetSeconds: secondsOf(level.msBeforeNext) }
        : { remaining: this.limits.burst, resetSeconds: BURST_WINDOW_S },
    };
  }
}

const secondsOf = (ms: number) => Math.ceil(ms / 1000);
