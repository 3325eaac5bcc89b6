import type { Middleware } from 'koa';
import type { Provider } from 'oidc-provider';
import type { Config } from '../config';
import { OAUTH_ISSUER_PATH } from './oauth.constants';
import { PROTECTED_RESOURCE_PATH, protectedResourceMetadata } from './protected-resource';

/** The authorization server's metadata (RFC 8414) at the places clients look for an issuer with a path. */
const METADATA_ALIASES = [
  `/.well-known/oauth-authorization-server${OAUTH_ISSUER_PATH}`,
  `/.well-known/openid-configuration${OAUTH_ISSUER_PATH}`,
];

/** Whether oidc-provider answers this path (it reads its own request bodies). */
export const isAuthorizationServerPath = (path: string) =>
  path.startsWith(`${OAUTH_ISSUER_PATH}/`) || METADATA_ALIASES.includes(path);

/**
 * The OAuth endpoints: the protected resource metadata of the MCP endpoint, and oidc-provider's
 * own routes under the issuer path (`/oauth/auth`, `/oauth/token`, `/oauth/reg`,
 * `/oauth/token/revocation`, `/oauth/jwks`, `/oauth/.well-known/openid-configuration`), with its
 * metadata also at the RFC 8414 location. oidc-provider runs as its own Koa app on the raw
 * request, so its cookies, errors and bodies are its own.
 */
export function oauthServerRoutes(deps: {
  config: Pick<Config, 'PUBLIC_URL'>;
  provider: () => Provider;
}): Middleware {
  let handle: ReturnType<Provider['callback']> | undefined;
  return async (ctx, next) => {
    if (ctx.path === PROTECTED_RESOURCE_PATH || ctx.path === '/.well-known/oauth-protected-resource') {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.state.route = PROTECTED_RESOURCE_PATH;
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = protectedResourceMetadata(deps.config.PUBLIC_URL);
      return;
    }
    if (!isAuthorizationServerPath(ctx.path)) return next();
    ctx.state.route = `${OAUTH_ISSUER_PATH}/*`;
    const inner = METADATA_ALIASES.includes(ctx.path)
      ? '/.well-known/openid-configuration'
      : ctx.path.slice(OAUTH_ISSUER_PATH.length);
    ctx.req.url = inner + (ctx.querystring ? `?${ctx.querystring}` : '');
    // As a mounting framework would: oidc-provider builds its endpoints' URLs from the mount path.
    (ctx.req as { originalUrl?: string }).originalUrl = OAUTH_ISSUER_PATH + ctx.req.url;
    ctx.respond = false;
    handle ??= deps.provider().callback();
    await handle(ctx.req, ctx.res);
    // The authorization server's one 429 is the registration limit's (registration-limit.ts).
    if (ctx.res.statusCode === 429) ctx.state.rateLimitedBy = 'clientRegistrations';
  };
}
