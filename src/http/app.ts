import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { notFoundError } from '../errors/app-error';
import type { Logger } from '../logger';
import type { TemporalHandle } from '../temporal/client';
import { errorMiddleware } from './error-middleware';
import { healthRoutes } from './health.routes';
import { requestId } from './request-id';

export interface AppDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  temporal: TemporalHandle;
}

/** The Koa application: REST under /api/v1, the web app's own routes, and /healthz. */
export function createApp(deps: AppDeps): Koa {
  const app = createBaseApp({ logger: deps.logger, bodyLimitKb: deps.config.REQUEST_BODY_LIMIT_KB });

  const health = healthRoutes(deps);
  app.use(health.routes()).use(health.allowedMethods());

  // Unknown API paths answer the spec's not_found body rather than Koa's plain-text 404.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
      throw notFoundError(`No route for ${ctx.method} ${ctx.path}.`, 'routeNotFound');
    }
  });

  return app;
}

/** Request id and logging, the error mapping, and the JSON body parser with its size limit. */
export function createBaseApp(options: { logger: Logger; bodyLimitKb: number }): Koa {
  const app = new Koa({ proxy: false });
  // Errors are answered by errorMiddleware; Koa's default handler would log them again.
  app.silent = true;
  app.use(requestId(options.logger));
  app.use(errorMiddleware());
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: `${options.bodyLimitKb}kb`, encoding: 'utf-8' }));
  return app;
}
