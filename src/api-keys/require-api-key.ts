import type { Middleware } from 'koa';
import type { ApiKeyAuthenticator } from './api-key-auth';

/** REST: every `/api/v1` call carries `x-api-key` (docs/api.md#authentication). */
export function requireApiKey(authenticator: ApiKeyAuthenticator): Middleware {
  return async (ctx, next) => {
    // ctx.ip: the peer, or X-Forwarded-For's entry of the trusted proxy only with TRUST_PROXY.
    ctx.state.actor = await authenticator.authenticate(ctx.get('x-api-key') || undefined, { ip: ctx.ip });
    await next();
  };
}
