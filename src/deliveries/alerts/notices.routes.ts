import Router from '@koa/router';
import { actorOf } from '../../identity/actor';
import { parseId } from '../../http/validate';
import { noticeNotFound, type NoticesService } from './notices.service';

/** The caller's notices: list the open ones, dismiss one (REST under /api/v1, the web app under /app/api). */
export function noticesRoutes(deps: { notices: NoticesService }): Router {
  const { notices } = deps;
  const router = new Router();

  router.get('/notices', async (ctx) => {
    ctx.body = await notices.list(actorOf(ctx));
  });

  router.post('/notices/:id/dismiss', async (ctx) => {
    ctx.body = await notices.dismiss(actorOf(ctx), parseId(ctx.params.id, noticeNotFound));
  });

  return router;
}
