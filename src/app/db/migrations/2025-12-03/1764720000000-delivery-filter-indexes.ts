import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/**
 * An index that leads with what each filter of the delivery log fixes, for its page and for its
 * capped count, alone and combined (issue 38; docs/deliveries.md, "Which index answers which
 * filter"). Each is led by the workspace, so the count is an index-only scan, and each carries the
 * other filters' columns after (created_at, id), where a B-tree checks them on the index entry:
 * - `event`: (workspace, event, time) and (workspace, webhook, event, time), with the webhook and the
 *   status after them, so `event=` alone, with one webhook, with a status or a window walks only
 *   that event's entries (the trigram index served it, sorting or scanning 1 % of the log);
 * - `url`: (workspace, url, time) with the webhook, status and event after, replacing
 *   `deliveries_workspace_url_idx`, so a URL with a status or an event is read from the index;
 * - one webhook's status: (workspace, webhook, status, time, next_attempt_at), replacing
 *   `deliveries_webhook_status_idx`, which lacked the workspace, so its count read the table;
 * - (workspace, webhook, url) without time: B-tree deduplication keeps it at a few bytes a
 *   delivery, and it counts a webhook with a URL (often none: another webhook's URL) at once.
 * Time ascends in the new indexes (read backward for newest first): a delivery is inserted at the
 * end of its group, where page splits leave full pages, not half-full ones as at the head of a
 * descending group. Built CONCURRENTLY, outside a transaction, as 1764662400000-delivery-log-indexes;
 * the replaced indexes are dropped CONCURRENTLY once the new ones are valid.
 */
export class DeliveryFilterIndexes1764720000000 implements MigrationInterface {
  name = 'DeliveryFilterIndexes1764720000000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', DELIVERY_FILTER_INDEXES);
    await dropIndexesConcurrently(db, REPLACED_INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', REPLACED_INDEXES);
    await dropIndexesConcurrently(db, DELIVERY_FILTER_INDEXES);
  }
}

/** Each index's name and what follows `ON deliveries`. */
export const DELIVERY_FILTER_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_workspace_event_time_idx', '(workspace_id, event, created_at, id, status)'],
  ['deliveries_webhook_event_time_idx', '(workspace_id, webhook_id, event, created_at, id, status)'],
  ['deliveries_workspace_url_time_idx', '(workspace_id, url, created_at, id, status, event)'],
  [
    'deliveries_workspace_webhook_status_idx',
    '(workspace_id, webhook_id, status, created_at, id, next_attempt_at)',
  ],
  ['deliveries_webhook_url_idx', '(workspace_id, webhook_id, url)'],
];

/** The indexes of 1764662400000-delivery-log-indexes that the wider ones above replace. */
export const REPLACED_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_webhook_status_idx', '(webhook_id, status, created_at DESC, id DESC)'],
  ['deliveries_workspace_url_idx', '(workspace_id, url, created_at DESC, id DESC)'],
];
