import Router from '@koa/router';
import { actorOf } from '../../identity/actor';
import { parse, parseId } from '../../http/validate';
import { webhookIdOf } from '../log/route-params';
import { resendFailedBody, resendFailedPreviewQuery } from './resend-batch-request';
import { resendBatchNotFound, type ResendBatchesService } from './resend-batches.service';

/** "Resend failed since …": start a batch (202, it runs on), then follow it. */
export function resendBatchesRoutes(deps: {
  resendBatches: ResendBatchesService;
  /** The web app's routes (/app/api) add the dialog's preview. */
  web?: boolean;
}): Router {
  const { resendBatches } = deps;
  const router = new Router();

  if (deps.web) {
    // "Resend failed since…" says how many a batch started now would resend, before it starts.
    router.get('/webhooks/:id/resend-failed/preview', async (ctx) => {
      const webhookId = webhookIdOf(ctx);
      const { since } = parse(resendFailedPreviewQuery, ctx.query);
      ctx.body = await resendBatches.preview(actorOf(ctx), webhookId, since);
    });
  }

  router.post('/webhooks/:id/resend-failed', async (ctx) => {
    const webhookId = webhookIdOf(ctx);
    const { since } = parse(resendFailedBody, ctx.request.body ?? {});
    const batch = await resendBatches.start(actorOf(ctx), webhookId, since);
    ctx.status = 202;
    ctx.set('Location', `${ctx.path.replace(/\/resend-failed$/, '')}/resend-batches/${batch.id}`);
    ctx.body = batch;
  });

  router.get('/webhooks/:id/resend-batches/:batchId', async (ctx) => {
    const webhookId = webhookIdOf(ctx);
    const batchId = parseId(ctx.params.batchId, resendBatchNotFound);
    ctx.body = await resendBatches.get(actorOf(ctx), webhookId, batchId);
  });

  return router;
}
