import type { EntityManager } from 'typeorm';
import {
  fillBuckets,
  type CountedBucket,
  type DeliveryStats,
  type StatsWindow,
} from '../../shared/deliveries/delivery-stats';

/**
 * Deliveries by outcome per bucket of the window, in one query: over the workspace's
 * (workspace_id, created_at) index, or one webhook's (webhook_id, created_at) index. Each delivery
 * counts once, in the bucket of its creation, with its status now.
 */
export async function loadDeliveryStats(
  manager: EntityManager,
  workspaceId: string,
  window: StatsWindow,
  webhookId: string | null,
): Promise<DeliveryStats> {
  const oneWebhook = webhookId ? 'AND webhook_id = $5' : '';
  const rows: CountedBucket[] = await manager.query(
    `SELECT date_trunc($4, created_at, 'UTC') AS start,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE status = 'failed')::int AS failed,
            count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS "inFlight"
       FROM deliveries
      WHERE workspace_id = $1 AND created_at >= $2 AND created_at < $3
        ${oneWebhook}
      GROUP BY 1`,
    [workspaceId, window.from, window.to, window.unit, ...(webhookId ? [webhookId] : [])],
  );
  return fillBuckets(window, rows, webhookId);
}
