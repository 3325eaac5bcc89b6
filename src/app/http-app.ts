import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { join } from 'node:path';
import Koa from 'koa';
import type { DataSource } from 'typeorm';
import { apiKeysRoutes } from '../api-keys/api-keys.routes';
import type { Config } from '../config';
import { MethodNotAllowedError, notFoundError } from '../shared/app-error';
import { identityRoutes } from '../identity/identity.routes';
import { meRoutes } from '../api-keys/me.routes';
import { workspaceAdminRoutes } from '../identity/workspace-admin.routes';
import type { Logger } from '../logger';
import { mcpRoutes } from '../mcp/mcp.routes';
import { connectedAccountsRoutes, messagingInboundRoutes } from '../messaging/messaging.routes';
import { mcpTools } from '../mcp/mcp-tools';
import { modelRoutes } from '../record-model/model.routes';
import { recordsRoutes } from '../records/records.routes';
import { projectRoot } from '../project-root';
import { createServices, identityHooks, type Services } from './services';
import { deliveriesRoutes } from '../deliveries/log/deliveries.routes';
import { resendBatchesRoutes } from '../deliveries/resend/resend-batches.routes';
import { testEventsRoutes } from '../deliveries/test-events/test-events.routes';
import { listenRoutes } from '../deliveries/listen/listen.routes';
import { noticesRoutes } from '../deliveries/alerts/notices.routes';
import { webhooksRoutes } from '../webhooks/webhooks.routes';
import type { TemporalHandle } from '../temporal/client';
import { requireApiKey } from '../api-keys/require-api-key';
import { requireJsonWrites } from '../http/content-type';
import { idempotency } from '../http/idempotency/idempotency';
import { healthRoutes } from '../http/health.routes';
import { requireSameOrigin, requireSession, SESSION_COOKIE } from '../identity/sessions/session-auth';
import { actorOf } from '../identity/actor';
import { openapiRoutes } from './openapi/openapi.routes';
import { webAppMiddleware } from '../http/web-static';
import { createBaseApp } from '../http/base-app';
import { connectedAppsRoutes } from '../oauth/connected-apps.routes';
import { consentRoutes } from '../oauth/consent.routes';
import { isAuthorizationServerPath, oauthServerRoutes } from '../oauth/oauth-server.routes';
import { FairShare } from '../http/quotas/fair-share';
import { requestQuotasOf, type QuotaVerdict } from '../http/quotas/request-quotas';
import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { ApiKeyActor } from '../api-keys/api-key-auth';
import type { McpActor } from '../mcp/mcp-tool';
import type { Mailer } from '../mail/mailer';
import type { Registry } from 'prom-client';

export interface AppDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  temporal: TemporalHandle;
  /** Sends mail (MAIL_URL, or the embedded mail catcher); used when `services` are not given. */
  mailer?: Mailer;
  /** The process's Prometheus registry: the API's requests are counted in it (docs/observability.md#metrics). */
  metrics?: Registry;
}

/** The Koa application: REST and MCP under /api/v1, the web app's /app/api, and /healthz. */
export function createApp(deps: AppDeps, services: Services = createServices(deps)): Koa {
  const { config, dataSource } = deps;
  // Each client's and each workspace's REST, MCP and web app requests to their share of this process
  // (src/http/quotas/fair-share.ts): a client's line (its key, token or session cookie) forms before
  // its bodies are read and its credential is checked, so a burst of a hundred requests costs
  // another client's request almost nothing.
  const limits = { concurrency: config.API_CONCURRENCY_PER_WORKSPACE, queue: config.API_QUEUE_PER_WORKSPACE };
  const byClient = new FairShare(limits);
  const byWorkspace = new FairShare(limits);
  // Each API key (or OAuth connection), each web session and each workspace to its request quota,
  // counted in PostgreSQL: a workspace's keys, connections and sessions draw from one bucket.
  const quotas = requestQuotasOf(config, (dataSource.driver as PostgresDriver).master as Pool);
  const withinQuota = async (actor: McpActor): Promise<QuotaVerdict> =>
    quotas.credentials.check({
      credential: 'apiKeyId' in actor ? `key:${actor.apiKeyId}` : `oauth:${actor.oauthConnectionId}`,
      workspace: actor.workspace.id,
      creator: actor.workspace.createdBy,
    });
  // The web app's signed-in routes (issue 34, item 2): the session, then its quota, then its
  // workspace's line, the same line as the workspace's REST and MCP requests.
  // An unverified account passes only `signedInUnverified` (reading the session, asking for another
  // link); `signedIn` refuses it with 403 emailNotVerified (issue 34, account pre-claim).
  const quotaAndLine =
    (session: Koa.Middleware): Koa.Middleware =>
    (ctx, next) =>
      session(ctx, async () => {
        const { workspace } = actorOf(ctx);
        const verdict = await quotas.sessions.check({
          credential: `session:${digest(ctx.state.sessionToken!)}`,
          workspace: workspace.id,
          creator: workspace.createdBy,
        });
        ctx.set(verdict.headers);
        if (verdict.refusal) throw verdict.refusal;
        await byWorkspace.run(workspace.id, next);
      });
  const signedIn = quotaAndLine(requireSession(dataSource));
  const signedInUnverified = quotaAndLine(requireSession(dataSource, { allowUnverified: true }));
  const app = createBaseApp({
    logger: deps.logger,
    bodyLimitKb: config.REQUEST_BODY_LIMIT_KB,
    trustProxy: config.TRUST_PROXY,
    metrics: deps.metrics,
    authorizationServerPath: isAuthorizationServerPath,
    beforeBody: (ctx, next) => {
      const client = clientOf(ctx);
      return client ? byClient.run(client, next) : next();
    },
  });
  const {
    authenticator,
    apiKeys,
    records,
    trash,
    modelChanges,
    webhooks,
    workspaceHealth,
    deliveries,
    retryNow,
    testEvents,
    resendBatches,
    notices,
    listen,
    messaging,
    oauthServer,
    oauthTokens,
    oauthConnections,
    consent,
  } = services;

  mount(app, healthRoutes(deps));

  // OAuth for chat assistants: the MCP endpoint's metadata and the authorization server, which
  // answers with its own bodies (RFC 6749's errors), and the consent page's routes.
  app.use(oauthServerRoutes({ config, provider: oauthServer }));
  mount(app, consentRoutes({ consent, dataSource, publicUrl: config.PUBLIC_URL }));

  // docs/api.md#authentication: "The paths under {base_url}/api/auth/api-key/ answer 404 to direct requests."
  app.use(async (ctx, next) => {
    if (ctx.path === '/api/auth/api-key' || ctx.path.startsWith('/api/auth/api-key/')) {
      throw notFoundError(`No route for ${ctx.method} ${ctx.path}.`, 'routeNotFound');
    }
    await next();
  });

  // Writes send JSON: a body of another type would be skipped by the parser, not refused.
  app.use(requireJsonWrites());

  // The web app's own routes: session cookie, same-origin writes.
  const sameOrigin = requireSameOrigin(config.PUBLIC_URL);
  app.use(async (ctx, next) => (ctx.path.startsWith('/app/api/') ? sameOrigin(ctx, next) : next()));
  const mail = {
    dataSource,
    mailer: services.mailer,
    logger: deps.logger,
    publicUrl: () => config.PUBLIC_URL,
  };
  mount(
    app,
    identityRoutes({ dataSource, config, hooks: identityHooks, signedIn, signedInUnverified, mail }),
    '/app/api',
  );
  const web = new Router({ prefix: '/app/api' });
  web.use(signedIn);
  web.use(apiKeysRoutes({ apiKeys, config }).routes());
  web.use(workspaceAdminRoutes({ dataSource, hooks: identityHooks, mail, config }).routes());
  web.use(recordsRoutes({ records, trash }).routes());
  web.use(modelRoutes({ dataSource, modelChanges }).routes());
  web.use(deliveriesRoutes({ deliveries, retryNow, workspaceHealth, web: true }).routes());
  web.use(testEventsRoutes({ testEvents }).routes());
  web.use(noticesRoutes({ notices }).routes());
  web.use(resendBatchesRoutes({ resendBatches, web: true }).routes());
  web.use(connectedAccountsRoutes({ messaging }).routes());
  web.use(connectedAppsRoutes({ connections: oauthConnections }).routes());
  web.use(webhooksRoutes({ webhooks, web: true }).routes());
  mount(app, web);

  // MCP authenticates itself (its refusals have their own body).
  mount(
    app,
    mcpRoutes({
      authenticator,
      oauth: oauthTokens,
      publicUrl: () => config.PUBLIC_URL,
      dataSource,
      share: byWorkspace,
      quota: withinQuota,
      tools: mcpTools({
        dataSource,
        records,
        webhooks,
        deliveries,
        retryNow,
        testEvents,
        resendBatches,
        notices,
      }),
    }),
  );

  // Messaging providers authenticate by signature, not by API key.
  mount(app, messagingInboundRoutes({ messaging }));

  // The OpenAPI document needs no key.
  mount(app, openapiRoutes());

  // REST: every call carries x-api-key.
  const rest = new Router({ prefix: '/api/v1' });
  rest.use(requireApiKey(authenticator));
  rest.use(async (ctx, next) => {
    const verdict = await withinQuota(ctx.state.actor as ApiKeyActor);
    ctx.set(verdict.headers);
    if (verdict.refusal) throw verdict.refusal;
    await next();
  });
  rest.use((ctx, next) => byWorkspace.run(ctx.state.actor!.workspace.id, next));
  rest.use(idempotency(dataSource));
  rest.use(meRoutes().routes());
  rest.use(recordsRoutes({ records, trash }).routes());
  rest.use(modelRoutes({ dataSource, modelChanges }).routes());
  rest.use(deliveriesRoutes({ deliveries, retryNow }).routes());
  rest.use(testEventsRoutes({ testEvents }).routes());
  rest.use(noticesRoutes({ notices }).routes());
  rest.use(resendBatchesRoutes({ resendBatches }).routes());
  rest.use(webhooksRoutes({ webhooks, web: false }).routes());
  rest.use(listenRoutes({ listen }).routes());
  mount(app, rest);

  // Unknown API paths answer the spec's not_found body rather than Koa's plain-text 404; a path
  // that exists with other methods answers 405 with `Allow` (the routers' own allowedMethods
  // never see these requests: this throws first).
  app.use(async (ctx, next) => {
    await next();
    if (
      ctx.status === 404 &&
      ctx.body === undefined &&
      (ctx.path.startsWith('/api/') || ctx.path.startsWith('/app/api/'))
    ) {
      const allow = allowedMethodsOf(ctx);
      if (allow.length && !allow.includes(ctx.method)) throw new MethodNotAllowedError(ctx.method, allow);
      throw notFoundError(`No route for ${ctx.method} ${ctx.path}.`, 'routeNotFound');
    }
  });

  // The web app (built by `vite build` into dist/web): files, and index.html for its routes.
  app.use(webAppMiddleware({ root: join(projectRoot(), 'dist', 'web') }));

  return app;
}

/**
 * Whose line a request waits in, before it is checked: a REST or MCP request's key or bearer token,
 * a web app request's session cookie, hashed; none for other requests or without a credential.
 */
function clientOf(ctx: Koa.Context): string | undefined {
  if (ctx.path.startsWith('/api/v1/')) {
    const credential = ctx.get('x-api-key') || ctx.get('authorization');
    return credential ? digest(credential) : undefined;
  }
  const token = ctx.path.startsWith('/app/api/') ? ctx.cookies.get(SESSION_COOKIE) : undefined;
  return token ? `session:${digest(token)}` : undefined;
}

/** A credential as a line's or a quota's key: never the secret itself. */
function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** The methods of every route whose path matched this request, in any mounted router. */
function allowedMethodsOf(ctx: Koa.Context): string[] {
  const matched = (ctx as { matched?: { methods: string[] }[] }).matched ?? [];
  return [...new Set(matched.flatMap((layer) => layer.methods))];
}

function mount(app: Koa, router: Router, prefix?: string): void {
  if (prefix) router.prefix(prefix);
  app.use(router.routes()).use(router.allowedMethods());
}
