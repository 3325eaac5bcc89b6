import Router from '@koa/router';
import { decodePaging, encodePage } from '../http/paging';
import type { Context } from 'koa';
import { actorOf } from '../identity/actor';
import { parse, parseId } from '../http/validate';
import {
  createWebhookBody,
  listWebhooksQuery,
  rotateSecretBody,
  updateWebhookBody,
} from './webhooks.schemas';
import { webhookNotFound, type WebhookChannel, type WebhooksService } from './webhooks.service';

/** REST clients come with an API key; the web app with its session. */
const channelOf = (ctx: Context): WebhookChannel =>
  (ctx.state.actor as { apiKeyId?: string } | undefined)?.apiKeyId ? 'rest' : 'web';

/** `/api/v1/webhooks…` (REST) and `/app/api/webhooks…` (web app). */
export function webhooksRoutes(deps: { webhooks: WebhooksService; web: boolean }): Router {
  const { webhooks } = deps;
  const router = new Router();

  router.get('/webhooks', async (ctx) => {
    ctx.body = encodePage(
      await webhooks.list(actorOf(ctx), decodePaging(parse(listWebhooksQuery, ctx.query))),
    );
  });

  router.post('/webhooks', async (ctx) => {
    const body = parse(createWebhookBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await webhooks.create(actorOf(ctx), body, channelOf(ctx));
  });

  router.get('/webhooks/:id', async (ctx) => {
    ctx.body = await webhooks.get(actorOf(ctx), parseId(ctx.params.id, webhookNotFound));
  });

  router.patch('/webhooks/:id', async (ctx) => {
    const body = parse(updateWebhookBody, ctx.request.body);
    ctx.body = await webhooks.update(
      actorOf(ctx),
      parseId(ctx.params.id, webhookNotFound),
      body,
      channelOf(ctx),
    );
  });

  router.post('/webhooks/:id/rotate-secret', async (ctx) => {
    const body = parse(rotateSecretBody, ctx.request.body);
    ctx.body = await webhooks.rotateSecret(actorOf(ctx), parseId(ctx.params.id, webhookNotFound), body);
  });

  router.delete('/webhooks/:id', async (ctx) => {
    await webhooks.delete(actorOf(ctx), parseId(ctx.params.id, webhookNotFound));
    ctx.status = 204;
  });

  if (deps.web) {
    // The dialog shows saved secret and header values to Admin and roles with Edit only.
    router.get('/webhooks/:id/secrets', async (ctx) => {
      ctx.body = await webhooks.revealSecrets(actorOf(ctx), parseId(ctx.params.id, webhookNotFound));
    });
  }

  return router;
}
