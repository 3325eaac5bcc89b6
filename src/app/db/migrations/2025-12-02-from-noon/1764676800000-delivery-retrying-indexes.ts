import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/**
 * The indexes behind the log's `state=retrying` filter (issue 27, item 1; docs/deliveries.md, "The
 * delivery log"): a Failed delivery whose next attempt is scheduled. Retrying deliveries are few
 * (those of the last hour and a half or so) while Failed ones pile up for as long as the workspace
 * exists, so the status indexes would find the page quickly (newest first) but walk every Failed
 * delivery of the workspace for the count. Partial indexes hold only the retrying rows, newest
 * first, for the workspace and for one webhook: small, and cheap to keep, since a delivery enters
 * and leaves them with the status change the status indexes already follow. `state=failed` (for
 * good) stays on the status indexes, skipping the few retrying rows. The list must spell the
 * predicate as the indexes do (`stateCondition` in src/shared/deliveries/delivery-state.ts, read by
 * deliveries.service.ts). Built CONCURRENTLY, outside a transaction, as 1764662400000-delivery-log-indexes.
 */
export class DeliveryRetryingIndexes1764676800000 implements MigrationInterface {
  name = 'DeliveryRetryingIndexes1764676800000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', DELIVERY_RETRYING_INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, DELIVERY_RETRYING_INDEXES);
  }
}

const RETRYING = `WHERE status = 'failed' AND next_attempt_at IS NOT NULL`;

/** Each index's name and what follows `ON deliveries`. */
export const DELIVERY_RETRYING_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_workspace_retrying_idx', `(workspace_id, created_at DESC, id DESC) ${RETRYING}`],
  ['deliveries_webhook_retrying_idx', `(webhook_id, created_at DESC, id DESC) ${RETRYING}`],
];
