import Router from '@koa/router';
import { decodePaging, encodePage } from '../../http/paging';
import { actorOf } from '../../identity/actor';
import { parse } from '../../http/validate';
import type { DeliveriesService } from './deliveries.service';
import { deliveryPathOf, webhookIdOf } from './route-params';
import { deliveryStatsQuery, listAllDeliveriesQuery, listDeliveriesQuery } from './delivery-query';
import type { RetryNowService } from './retry-now.service';
import type { WorkspaceHealthService } from './workspace-health.service';

/**
 * The delivery log: `/webhooks/deliveries` (every webhook), `/webhooks/{id}/deliveries`, Event
 * Details, resend, Retry now, and the chart's counts (a test event: test-events.routes.ts). Mounted before the webhook routes so "deliveries" is
 * never read as an id; `/webhooks/deliveries/stats` has one segment too few for any `{id}` route.
 */
export function deliveriesRoutes(deps: {
  deliveries: DeliveriesService;
  retryNow: RetryNowService;
  /** The web app's routes (/app/api) add what only its pages need. */
  web?: boolean;
  /** The Dashboard's webhook health (web only). */
  workspaceHealth?: WorkspaceHealthService;
}): Router {
  const { deliveries, retryNow } = deps;
  const router = new Router();

  router.get('/webhooks/deliveries', async (ctx) => {
    ctx.body = encodePage(
      await deliveries.list(actorOf(ctx), decodePaging(parse(listAllDeliveriesQuery, ctx.query))),
    );
  });

  router.get('/webhooks/deliveries/stats', async (ctx) => {
    ctx.body = await deliveries.stats(actorOf(ctx), parse(deliveryStatsQuery, ctx.query));
  });

  if (deps.web) {
    // The Deliveries page's event filter: the catalog, plus the retired events found here.
    router.get('/webhooks/deliveries/legacy-events', async (ctx) => {
      ctx.body = await deliveries.legacyEvents(actorOf(ctx));
    });
  }

  if (deps.web && deps.workspaceHealth) {
    // The Dashboard's webhook health: every webhook of the workspace counted by its word.
    const { workspaceHealth } = deps;
    router.get('/webhooks/deliveries/health', async (ctx) => {
      ctx.body = await workspaceHealth.summary(actorOf(ctx));
    });
  }

  router.get('/webhooks/:id/deliveries', async (ctx) => {
    const webhookId = webhookIdOf(ctx);
    ctx.body = encodePage(
      await deliveries.list(actorOf(ctx), {
        ...decodePaging(parse(listDeliveriesQuery, ctx.query)),
        webhookId,
      }),
    );
  });

  router.get('/webhooks/:id/deliveries/:deliveryId', async (ctx) => {
    const ids = deliveryPathOf(ctx);
    ctx.body = await deliveries.details(actorOf(ctx), ...ids);
  });

  router.post('/webhooks/:id/deliveries/:deliveryId/resend', async (ctx) => {
    const ids = deliveryPathOf(ctx);
    ctx.status = 201;
    ctx.body = await deliveries.resend(actorOf(ctx), ...ids);
  });

  // Accepted: the next attempt runs now, in the delivery's workflow; Event Details show its outcome.
  router.post('/webhooks/:id/deliveries/:deliveryId/retry-now', async (ctx) => {
    const ids = deliveryPathOf(ctx);
    ctx.body = await retryNow.retryNow(actorOf(ctx), ...ids);
    ctx.status = 202;
  });

  return router;
}
