import type { Middleware } from 'koa';
import type { ApiKeyAuthenticator } from './api-key-auth';

/** REST: every `/api/v1` call carries `x-api-key` (spec.md, Authentication 1). */
export function requireApiKey(authenticator: ApiKeyAuthenticator): Middleware {
  return async (ctx, next) => {
    ctx.state.actor = await authenticator.authenticate(ctx.get('x-api-key') || undefined);
    await next();
  };
}
