import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  createIndexesConcurrently,
  dropIndexesConcurrently,
  type IndexDefinition,
} from '../../../../db/concurrent-indexes';

const KEPT_REQUEST_INDEX: IndexDefinition = [
  'delivery_attempts_kept_request_idx',
  '(started_at) WHERE request_headers IS NOT NULL',
];

/**
 * The retention window of attempt request details (issue 26; docs/deliveries.md, "What is kept,
 * for how long, and why"): `request_expired_at` says when the sweep dropped an attempt's kept
 * request, so Event Details can say so; a new nullable column without a default, so no rewrite of
 * the table. The sweep finds its work through a partial index on `started_at` of the attempts that
 * still keep a request: the oldest come first, and a swept row leaves the index, which so holds
 * about the window's attempts, not the whole history.
 *
 * No transaction: the index is built CONCURRENTLY (src/db/concurrent-indexes.ts), so attempts go on being
 * written while a large table is indexed. The column is added first, under the pool's short lock_timeout (a brief exclusive lock that must
 * not queue writes behind a long transaction); the build may then wait longer for older
 * transactions, as a concurrent build waits for them twice.
 */
export class AttemptRequestExpiry1764669600000 implements MigrationInterface {
  name = 'AttemptRequestExpiry1764669600000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE delivery_attempts ADD COLUMN IF NOT EXISTS request_expired_at timestamptz`);
    await createIndexesConcurrently(db, 'delivery_attempts', [KEPT_REQUEST_INDEX]);
  }

  async down(db: QueryRunner): Promise<void> {
    await dropIndexesConcurrently(db, [KEPT_REQUEST_INDEX]);
    await db.query(`ALTER TABLE delivery_attempts DROP COLUMN IF EXISTS request_expired_at`);
  }
}
