import Router from '@koa/router';
import { decodePaging, encodePage } from '../http/paging';
import { actorOf } from '../identity/actor';
import { parse, parseId } from '../http/validate';
import { restCause } from './write-cause';
import { listRecordsQuery, recordWriteBody } from './records.schemas';
import { recordNotFound } from './record-writes';
import type { RecordsService } from './records.service';
import type { TrashService } from './trash/trash.service';

/**
 * Records over REST (`/api/v1/records/...`) and for the web app (`/app/api/records/...`).
 * `{type}` is a type id, a type name, or a built-in key (`contact`, `deal`, …).
 */
export function recordsRoutes(deps: { records: RecordsService; trash: TrashService }): Router {
  const { records, trash } = deps;
  const router = new Router();

  const locate = (params: Record<string, string | undefined>) => ({
    typeRef: params.type!,
    recordId: parseId(params.id, recordNotFound),
  });

  router.post('/records/:type', async (ctx) => {
    const body = parse(recordWriteBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await records.create(actorOf(ctx), restCause(ctx), ctx.params.type!, body);
  });

  router.get('/records/:type', async (ctx) => {
    const { limit, cursor, search, filters, status } = parse(listRecordsQuery, ctx.query);
    ctx.body = encodePage(
      await records.list(
        actorOf(ctx),
        ctx.params.type!,
        decodePaging({ limit, cursor, search, filters, status }),
      ),
    );
  });

  router.get('/records/:type/:id', async (ctx) => {
    ctx.body = await records.get(actorOf(ctx), locate(ctx.params));
  });

  router.patch('/records/:type/:id', async (ctx) => {
    const body = parse(recordWriteBody, ctx.request.body);
    ctx.body = await records.update(actorOf(ctx), restCause(ctx), locate(ctx.params), body);
  });

  router.post('/records/:type/:id/trash', async (ctx) => {
    ctx.body = await trash.trash(actorOf(ctx), restCause(ctx), locate(ctx.params));
  });

  router.post('/records/:type/:id/restore', async (ctx) => {
    ctx.body = await trash.restore(actorOf(ctx), restCause(ctx), locate(ctx.params));
  });

  router.delete('/records/:type/:id', async (ctx) => {
    await trash.deletePermanently(actorOf(ctx), restCause(ctx), locate(ctx.params));
    ctx.status = 204;
  });

  return router;
}
