import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/** The retired events as the catalog had them: a migration runs as it was written, whatever the catalog becomes. */
const RETIRED_EVENTS_SQL =
  "('contact.created', 'contact.updated', 'contact.deleted', 'organization.created', 'organization.updated', " +
  "'organization.deleted', 'deal.created', 'deal.updated', 'deal.deleted', 'service.created', 'service.updated', " +
  "'service.deleted', 'task.created', 'task.updated', 'task.deleted')";

/**
 * The index behind the Deliveries page's event filter (issue 27, item 5): it offers a retired
 * (legacy) event only where the workspace has deliveries of it. Such deliveries come only from the
 * legacy import, so a partial index over them is small, costs a new delivery one predicate test,
 * and answers "does this workspace have a delivery of this retired event" with its first entry,
 * whatever the size of the log (`loadLegacyEvents` spells the same predicate). Built CONCURRENTLY,
 * outside a transaction, as 1764662400000-delivery-log-indexes.
 */
export class DeliveryLegacyEventIndex1764684000000 implements MigrationInterface {
  name = 'DeliveryLegacyEventIndex1764684000000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', DELIVERY_LEGACY_EVENT_INDEXES);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, DELIVERY_LEGACY_EVENT_INDEXES);
  }
}

/** Each index's name and what follows `ON deliveries`. */
export const DELIVERY_LEGACY_EVENT_INDEXES: readonly IndexDefinition[] = [
  ['deliveries_workspace_legacy_event_idx', `(workspace_id, event) WHERE event IN ${RETIRED_EVENTS_SQL}`],
];
