import type { Middleware } from 'koa';
import type { Pool } from 'pg';
import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';
import { clientAddressKey } from '../../security/client-address-key';
import { sharedCounter } from '../../security/shared-counter';

/**
 * Client registrations (RFC 7591, `POST /oauth/reg`) per client address and window: enough for a
 * person connecting a few assistants and retrying, far too few to fill the store. The MCP SDK's own
 * authorization server allows 20 an hour. Candidate setting OAUTH_REGISTRATIONS_PER_HOUR.
 */
export const REGISTRATIONS_PER_ADDRESS = 10;

export const REGISTRATION_WINDOW_SECONDS = 60 * 60;

/** The registration endpoint inside the authorization server (`/oauth/reg` outside). */
export const REGISTRATION_PATH = '/reg';

/**
 * oidc-provider's router matches paths case-insensitively and with a trailing slash, so the limit
 * must recognise `/REG` and `/reg/` as the same endpoint.
 */
const isRegistrationPath = (path: string) => path.replace(/\/$/, '').toLowerCase() === REGISTRATION_PATH;

/**
 * Counts registrations per client address in PostgreSQL (rate-limiter-flexible on `rate_limits`),
 * so every API process shares the count. Every attempt counts, refused ones too: the count is taken
 * before the request is read, which keeps a burst of simultaneous attempts to the limit. An address
 * over it is then blocked in this process's memory for the rest of its window, so a flood costs the
 * database nothing more; should the database fail, a count in this process's memory stands in.
 */
export class RegistrationLimit {
  private readonly limiter: RateLimiterPostgres;

  constructor(
    pool: Pool,
    readonly perWindow = REGISTRATIONS_PER_ADDRESS,
    readonly windowSeconds = REGISTRATION_WINDOW_SECONDS,
  ) {
    const keyPrefix = 'oauth-registration';
    this.limiter = sharedCounter(pool, {
      keyPrefix,
      points: perWindow,
      duration: windowSeconds,
      clearExpired: true,
      inMemoryBlockOnConsumed: perWindow + 1,
      insurance: true,
    });
  }

  /** Counts one registration from `ip`: undefined when allowed, else the seconds to wait. */
  async take(ip: string): Promise<number | undefined> {
    try {
      await this.limiter.consume(clientAddressKey(ip));
      return undefined;
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return Math.max(1, Math.ceil(refused.msBeforeNext / 1000));
    }
  }
}

/**
 * The authorization server's pre-middleware (`provider.use`): a registration over the limit is
 * answered 429 before oidc-provider reads it, so nothing is stored. The body has oidc-provider's
 * shape (RFC 7591 section 3.2.2); `too_many_requests` is the code the MCP SDK's clients know.
 */
export function limitRegistrations(limit: RegistrationLimit): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST' || !isRegistrationPath(ctx.path)) return next();
    const retryAfter = await limit.take(ctx.ip);
    if (retryAfter === undefined) return next();
    ctx.status = 429;
    ctx.set('Retry-After', String(retryAfter));
    ctx.set('Cache-Control', 'no-store');
    const window = `${limit.perWindow} every ${limit.windowSeconds / 60} minutes`;
    ctx.body = {
      error: 'too_many_requests',
      error_description: `Too many client registrations from this address (at most ${window}). Retry after ${retryAfter} seconds.`,
    };
  };
}
