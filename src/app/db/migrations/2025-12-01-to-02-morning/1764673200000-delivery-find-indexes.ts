import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/**
 * The indexes behind finding a delivery by what you know (issue 27, item 3; docs/deliveries.md,
 * "Finding one delivery"), for a log of millions of deliveries per workspace (issue 26):
 * - `eventId`: `(workspace_id, event_id)`. An event has a handful of deliveries (one per subscribed
 *   webhook, plus resends), so they are sorted newest first after the index found them.
 * - `recordId`: the record lives in the `element` JSON (`{ typeId, recordId }`, or `{ entityId }` for
 *   a messaging event), so the index is on the expression `element ->> 'recordId'`, newest first,
 *   and only over deliveries that have one. An expression index instead of a new column: nothing
 *   changes on the write path (the dispatch's single INSERT, resends, test events, the legacy
 *   import), and no backfill has to rewrite every row of a large log, which a concurrent index
 *   build reads without rewriting. The list must spell the expression exactly as the index does
 *   (`RECORD_ID_SQL` in deliveries.service.ts).
 * - `idPrefix` needs no index of its own: a prefix of 8 or more hex digits is a range of the
 *   primary key (`deliveries_pkey`), which holds about one row per 4 billion deliveries of every
 *   workspace, and the workspace is checked on the rows the range holds.
 * Built CONCURRENTLY, outside a transaction, as 1764662400000-delivery-log-indexes.
 */
export class DeliveryFindIndexes1764673200000 implements MigrationInterface {
  name = 'DeliveryFindIndexes1764673200000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', DELIVERY_FIND_INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, DELIVERY_FIND_INDEXES);
  }
}

/** Each index's name and what follows `ON deliveries`. */
export const DELIVERY_FIND_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_workspace_event_idx', '(workspace_id, event_id)'],
  [
    'deliveries_workspace_record_idx',
    `(workspace_id, (element ->> 'recordId'), created_at DESC, id DESC) WHERE (element ->> 'recordId') IS NOT NULL`,
  ],
];
