import Router from '@koa/router';
import { actorOf } from '../../identity/actor';
import { parse } from '../../http/validate';
import { webhookIdOf } from '../log/route-params';
import { sendTestEventBody } from './test-event-request';
import type { TestEventsService } from './test-events.service';

/** Send a test event: a sample of one of the webhook's events, delivered like any other. */
export function testEventsRoutes(deps: { testEvents: TestEventsService }): Router {
  const { testEvents } = deps;
  const router = new Router();

  router.post('/webhooks/:id/test', async (ctx) => {
    const webhookId = webhookIdOf(ctx);
    const { event } = parse(sendTestEventBody, ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await testEvents.send(actorOf(ctx), webhookId, event);
  });

  return router;
}
