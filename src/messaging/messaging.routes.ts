import Router from '@koa/router';
import { notFoundError } from '../shared/app-error';
import { actorOf } from '../identity/actor';
import { parse, parseId } from '../http/validate';
import type { MessagingService } from './messaging.service';
import { connectAccountBody } from './messaging.schemas';

const accountNotFound = () => notFoundError('Connected account not found.', 'connectedAccountNotFound');

/**
 * `POST /api/v1/messaging/inbound/{accountId}`: the providers' inbound activity, authenticated by
 * `X-Provider-Signature` (lowercase hex HMAC-SHA256 of the raw body with the account's signing
 * secret), answered 202 at once.
 */
export function messagingInboundRoutes(deps: { messaging: MessagingService }): Router {
  const router = new Router();
  router.post('/api/v1/messaging/inbound/:accountId', async (ctx) => {
    const accountId = parseId(ctx.params.accountId, accountNotFound);
    const rawBody = (ctx.request as { rawBody?: string }).rawBody ?? '';
    ctx.status = 202;
    ctx.body = await deps.messaging.ingest(accountId, rawBody, ctx.get('x-provider-signature') || undefined);
  });
  return router;
}

/** Settings → Connected accounts (web app, Admins). */
export function connectedAccountsRoutes(deps: { messaging: MessagingService }): Router {
  const { messaging } = deps;
  const router = new Router();
  router.get('/connected-accounts', async (ctx) => {
    ctx.body = { data: await messaging.list(actorOf(ctx)) };
  });
  router.post('/connected-accounts', async (ctx) => {
    ctx.status = 201;
    ctx.body = await messaging.connect(actorOf(ctx), parse(connectAccountBody, ctx.request.body));
  });
  router.delete('/connected-accounts/:id', async (ctx) => {
    await messaging.disconnect(actorOf(ctx), parseId(ctx.params.id, accountNotFound));
    ctx.status = 204;
  });
  return router;
}
