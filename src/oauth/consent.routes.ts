import Router from '@koa/router';
import type { Context } from 'koa';
import type { DataSource } from 'typeorm';
import { actorOf } from '../identity/actor';
import { requireSameOrigin, requireSession } from '../identity/sessions/session-auth';
import { parse } from '../http/validate';
import type { ConsentService } from './consent.service';
import { CONSENT_PATH } from './oauth.constants';
import { consentBody } from './oauth.schemas';

/**
 * The consent page's JSON routes, under the page's own path: oidc-provider scopes its
 * interaction cookie to that path, so the browser sends it here and nowhere else. Like the web
 * app's other routes: the session cookie, and writes only from the service's own origin.
 */
export function consentRoutes(deps: {
  consent: ConsentService;
  dataSource: DataSource;
  publicUrl: string;
}): Router {
  const { consent } = deps;
  const router = new Router({ prefix: `${CONSENT_PATH}/:uid` });
  router.use(requireSameOrigin(deps.publicUrl));
  router.use(requireSession(deps.dataSource));

  const exchange = (ctx: Context) => ({ req: ctx.req, res: ctx.res, uid: String(ctx.params.uid) });

  router.get('/details', async (ctx) => {
    const actor = actorOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await consent.details(exchange(ctx), actor.user.id, actor.workspace.id);
  });

  router.post('/allow', async (ctx) => {
    const { workspaceId, readOnly } = parse(consentBody, ctx.request.body);
    ctx.body = await consent.allow(exchange(ctx), actorOf(ctx).user.id, workspaceId, readOnly ?? false);
  });

  router.post('/deny', async (ctx) => {
    ctx.body = await consent.deny(exchange(ctx));
  });

  return router;
}
