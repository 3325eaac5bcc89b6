// Where a chart bar and the Dashboard's webhooks in trouble lead: the Deliveries page with the
// filters that list exactly the deliveries they count (issue 27, item 6).
import type { DeliveryState } from '../../shared/deliveries/delivery-state';
import { healthWindows } from '../../shared/webhooks/webhook-health';
import type { WebhookView } from '../api';
import { deliveriesPathOf, statusFilterOf } from './deliveries';

/**
 * The deliveries of one chart bucket, [start, end): `createdTo` is inclusive on the server, so the
 * bucket's last millisecond ends it. `state` is the series clicked (none: the whole bar).
 */
export function bucketDeliveriesPath(bucket: {
  start: string;
  end: string;
  state?: DeliveryState;
  webhookId?: string | null;
}): string {
  return deliveriesPathOf({
    webhookId: bucket.webhookId ?? undefined,
    ...(bucket.state ? statusFilterOf(bucket.state) : {}),
    createdFrom: bucket.start,
    createdTo: new Date(new Date(bucket.end).getTime() - 1).toISOString(),
  });
}

/**
 * A webhook in trouble's deliveries to look at: its failures for good of the health window (the
 * 24 hours its word was judged on), else its retrying ones, else all of its deliveries.
 */
export function troubleDeliveries(
  webhook: Pick<WebhookView, 'id' | 'health'>,
  now: Date,
): { path: string; label: string } {
  const { failed, retrying } = webhook.health.last24h;
  const createdFrom = healthWindows(now).recent.toISOString();
  if (failed > 0) {
    return {
      path: deliveriesPathOf({ webhookId: webhook.id, ...statusFilterOf('failed'), createdFrom }),
      label: `Show ${failed} failed`,
    };
  }
  if (retrying > 0) {
    return {
      path: deliveriesPathOf({ webhookId: webhook.id, ...statusFilterOf('retrying'), createdFrom }),
      label: `Show ${retrying} retrying`,
    };
  }
  return { path: deliveriesPathOf({ webhookId: webhook.id }), label: 'Show deliveries' };
}
