import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

/**
 * Drops the trigram index on `deliveries.event` (issue 38; docs/deliveries.md, "Which index answers
 * which filter"). No query of the log reads it any more: an exact `event` walks the B-tree indexes
 * that lead with it, and `searchTerm` first lists the workspace's event names (a few: the event
 * catalog's) and reads them as `event IN (…)`. It cost every delivery a GIN insert on write and
 * about 27 bytes of disk. The URL trigram index stays: a workspace with more than 200 URLs still
 * searches them with ILIKE. Dropped CONCURRENTLY, outside a transaction, so writes go on.
 */
export class DropEventTrigramIndex1764756000000 implements MigrationInterface {
  name = 'DropEventTrigramIndex1764756000000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, EVENT_TRIGRAM_INDEX);
  }

  async down(db: QueryRunner): Promise<void> {
    await createIndexesConcurrently(db, 'deliveries', EVENT_TRIGRAM_INDEX);
  }
}

const EVENT_TRIGRAM_INDEX: readonly IndexDefinition[] = [
  ['deliveries_event_trgm_idx', 'USING gin (event gin_trgm_ops)'],
];
