import type { Pool } from 'pg';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config';
import { rateLimitError } from '../shared/app-error';
import { clientAddressKey } from './client-address-key';
import { sharedCounter } from './shared-counter';

/** What a blocked address is told: the message (given the seconds to wait) and the customCode. */
export interface FailureRefusal {
  message: (seconds: number) => string;
  customCode: string;
}

/** Keys and OAuth access tokens that are not valid (issue 34, item 7). */
export const INVALID_CREDENTIAL_REFUSAL: FailureRefusal = {
  message: (seconds) =>
    `Too many requests with an API key or access token that is not valid from this address. Try again in ${seconds} seconds.`,
  customCode: 'apiKeyThrottled',
};

/**
 * E-mailed links (proof of the address, password reset, invitations) whose token is not valid:
 * each is a lookup a stranger can repeat without an account.
 */
export const INVALID_LINK_REFUSAL: FailureRefusal = {
  message: (seconds) =>
    `Too many links that are not valid were opened from this address. Try again in ${seconds} seconds.`,
  customCode: 'linkThrottled',
};

/**
 * Failures per client address of something a stranger can try without an account: API keys and
 * OAuth tokens (issue 34, item 7: random keys were looked up
 * without limit (825 a second from one address, another workspace's p50 ~2.5×). Each failure (a
 * value that is not a key, or no key has it) is counted in PostgreSQL (rate-limiter-flexible on
 * `rate_limits`, shared by every API process) against the address as sign-in counts it
 * (`clientAddressKey` of Koa's `ctx.ip`: the peer, or with TRUST_PROXY the proxy's entry; an IPv6
 * address by its /64). The failure that reaches the budget blocks the address in this process's
 * memory until the window ends; another process learns it at its first failure from there.
 *
 * A blocked address is refused before its key is hashed or looked up, by a look in memory: a
 * request with a valid key from an address within its budget costs nothing more than before (no
 * database round trip), only failures are written. What is refused is every key sent from the
 * blocked address, valid ones included (as sign-in refuses the right password from a locked
 * address), so the attacker cannot learn which of its guesses would have worked.
 */
export class FailureThrottle {
  /** Address key → the time (ms) until which it is refused. */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly failures: RateLimiterAbstract,
    readonly perWindow: number,
    readonly windowSeconds: number,
    private readonly refusal: FailureRefusal = INVALID_CREDENTIAL_REFUSAL,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The throttle of the API processes: counts in PostgreSQL, in memory should the database fail.
   * Each kind of failure (`keyPrefix`) has its own count, within the same settings.
   */
  static postgres(
    pool: Pool,
    config: Pick<Config, 'API_KEY_FAILURES_PER_ADDRESS' | 'API_KEY_FAILURE_WINDOW_SECONDS'>,
    kind: { keyPrefix: string; refusal: FailureRefusal } = {
      keyPrefix: 'api-key-failures-address',
      refusal: INVALID_CREDENTIAL_REFUSAL,
    },
  ): FailureThrottle {
    const { keyPrefix } = kind;
    const points = config.API_KEY_FAILURES_PER_ADDRESS;
    const duration = config.API_KEY_FAILURE_WINDOW_SECONDS;
    const failures = sharedCounter(pool, {
      keyPrefix,
      points,
      duration,
      clearExpired: true,
      insurance: true,
    });
    return new FailureThrottle(failures, points, duration, kind.refusal);
  }

  /** Refuses `ip` (429 with the refusal's customCode and Retry-After) while it is blocked; memory only. */
  check(ip: string): void {
    const key = clientAddressKey(ip);
    const until = this.blocked.get(key);
    if (until === undefined) return;
    const ms = until - this.now();
    if (ms <= 0) {
      this.blocked.delete(key);
      return;
    }
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    throw rateLimitError(this.refusal.message(seconds), seconds, this.refusal.customCode);
  }

  /** Counts a failed authentication from `ip`; the one that reaches the budget blocks the address. */
  async fail(ip: string): Promise<void> {
    const key = clientAddressKey(ip);
    let counted: RateLimiterRes;
    try {
      counted = await this.failures.consume(key);
    } catch (over) {
      if (!(over instanceof RateLimiterRes)) throw over;
      counted = over;
    }
    if (counted.consumedPoints < this.perWindow) return;
    this.forgetExpired();
    this.blocked.set(key, this.now() + Math.max(1000, counted.msBeforeNext));
  }

  /** Keeps the memory to the addresses still blocked. */
  private forgetExpired(): void {
    const now = this.now();
    for (const [key, until] of this.blocked) if (until <= now) this.blocked.delete(key);
  }
}
