import type { EntityManager } from 'typeorm';
import {
  fillBuckets,
  type CountedBucket,
  type DeliveryStats,
  type StatsWindow,
} from '../../shared/deliveries/delivery-stats';
import { countsByBucket } from '../store';

/**
 * Deliveries by outcome per bucket of the window, read from the counts kept as deliveries change
 * (store/delivery-counts.repository.ts): at most one row per hour and state, whatever the log's size. Each delivery
 * counts once, in the bucket of its creation, with its status now.
 */
export async function loadDeliveryStats(
  manager: EntityManager,
  workspaceId: string,
  window: StatsWindow,
  webhookId: string | null,
): Promise<DeliveryStats> {
  const rows: CountedBucket[] = await countsByBucket(manager, workspaceId, window, webhookId);
  return fillBuckets(window, rows, webhookId);
}
