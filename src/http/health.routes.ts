import Router from '@koa/router';
import type { DataSource } from 'typeorm';
import { checkTemporal, type TemporalHandle } from '../temporal/client';

type DependencyStatus = { status: 'ok'; latencyMs: number } | { status: 'error'; error: string };

async function probe(check: () => Promise<unknown>): Promise<DependencyStatus> {
  const started = Date.now();
  try {
    await check();
    return { status: 'ok', latencyMs: Date.now() - started };
  } catch (error) {
    return { status: 'error', error: error instanceof Error ? error.message : String(error) };
  }
}

/** `GET /healthz`: 200 when PostgreSQL and Temporal both answer, 503 otherwise. */
export function healthRoutes(deps: { dataSource: DataSource; temporal: TemporalHandle }): Router {
  const router = new Router();
  router.get('/healthz', async (ctx) => {
    const [database, temporal] = await Promise.all([
      probe(() => deps.dataSource.query('SELECT 1')),
      probe(() => checkTemporal(deps.temporal)),
    ]);
    const ok = database.status === 'ok' && temporal.status === 'ok';
    ctx.status = ok ? 200 : 503;
    ctx.body = { status: ok ? 'ok' : 'degraded', database, temporal };
  });
  return router;
}
