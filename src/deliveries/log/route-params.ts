import { parseId } from '../../http/validate';
import { webhookNotFound } from '../../webhooks/webhooks.service';
import { deliveryNotFound } from './deliveries.service';

/** What a route reads its path's ids from (a Koa router context). */
interface RoutePath {
  params: Record<string, string>;
}

/** The webhook a `/webhooks/:id/…` route names; a malformed id answers webhookNotFound. */
export const webhookIdOf = (ctx: RoutePath): string => parseId(ctx.params.id, webhookNotFound);

/** The webhook and the delivery a `/webhooks/:id/deliveries/:deliveryId…` route names, in that order. */
export const deliveryPathOf = (ctx: RoutePath): [webhookId: string, deliveryId: string] => [
  webhookIdOf(ctx),
  parseId(ctx.params.deliveryId, deliveryNotFound),
];
