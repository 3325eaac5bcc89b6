import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import type { Logger } from '../logger';
import { errorMiddleware } from './error-middleware';
import { httpMetrics } from './observability/http-metrics';
import { traceRequests } from './observability/request-tracing';
import { currentTracing } from '../tracing/tracing';
import { requestId } from './request-id';
import { securityHeaders } from './security-headers';

/**
 * Security headers, request id and logging, the error mapping, and the JSON body parser with its size limit.
 * X-Forwarded-* headers are honoured only with `trustProxy` (TRUST_PROXY): a client could forge them.
 */
export function createBaseApp(options: {
  logger: Logger;
  bodyLimitKb: number;
  trustProxy?: boolean;
  /** The process's Prometheus registry, which gets the requests' series (http-metrics.ts). */
  metrics?: Registry;
  /** Runs before the body is read (the line each client's requests wait in). */
  beforeBody?: Koa.Middleware;
  /**
   * Paths that read their own bodies and may post a form to another origin: the OAuth
   * authorization server's (registration is JSON, token requests are forms, form_post answers).
   */
  authorizationServerPath?: (path: string) => boolean;
}): Koa {
  const ownBody = options.authorizationServerPath ?? (() => false);
  // Behind the one proxy TRUST_PROXY trusts, the client's address is the entry that proxy added to
  // X-Forwarded-For (the last): entries before it are whatever the client wrote, so taking the
  // first would let anyone spread sign-in guesses over made-up addresses.
  const app = new Koa({ proxy: options.trustProxy ?? false, maxIpsCount: 1 });
  // Errors are answered by errorMiddleware; Koa's default handler would log them again.
  app.silent = true;
  // Outermost, so every answer is counted and timed, refusals and the raw MCP and OAuth answers too.
  if (options.metrics) app.use(httpMetrics(options.metrics));
  // With tracing off (no OTLP endpoint) not even installed: no cost per request.
  if (currentTracing()) app.use(traceRequests());
  // First, so every answer carries them, errors and the raw answers of OAuth and MCP included.
  app.use(securityHeaders({ formPostsToClients: ownBody }));
  app.use(requestId(options.logger));
  app.use(errorMiddleware());
  if (options.beforeBody) app.use(options.beforeBody);
  const parseJson = bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${options.bodyLimitKb}kb`,
    encoding: 'utf-8',
  });
  app.use((ctx, next) => (ownBody(ctx.path) ? next() : parseJson(ctx, next)));
  return app;
}
