import Router from '@koa/router';
import { actorOf } from '../identity/actor';
import { parseId } from '../http/validate';
import { oauthConnectionNotFound, type OAuthConnectionsService } from './oauth-connections.service';

/** Settings → Connected apps (web app only): the caller's own OAuth connections in this workspace. */
export function connectedAppsRoutes(deps: { connections: OAuthConnectionsService }): Router {
  const router = new Router();

  router.get('/connected-apps', async (ctx) => {
    ctx.body = { data: await deps.connections.listOwn(actorOf(ctx)) };
  });

  router.delete('/connected-apps/:id', async (ctx) => {
    await deps.connections.disconnectOwn(actorOf(ctx), parseId(ctx.params.id, oauthConnectionNotFound));
    ctx.status = 204;
  });

  return router;
}
