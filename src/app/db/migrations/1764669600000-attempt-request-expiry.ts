import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createIndexConcurrently } from './concurrent-index';

const INDEX = 'delivery_attempts_kept_request_idx';

/**
 * The retention window of attempt request details (issue 26; docs/deliveries.md, "What is kept,
 * for how long, and why"): `request_expired_at` says when the sweep dropped an attempt's kept
 * request, so Event Details can say so; a new nullable column without a default, so no rewrite of
 * the table. The sweep finds its work through a partial index on `started_at` of the attempts that
 * still keep a request: the oldest come first, and a swept row leaves the index, which so holds
 * about the window's attempts, not the whole history.
 *
 * No transaction: the index is built CONCURRENTLY (concurrent-index.ts), so attempts go on being
 * written while a large table is indexed. The column is added first, under the pool's short lock_timeout (a brief exclusive lock that must
 * not queue writes behind a long transaction); the build may then wait longer for older
 * transactions, as a concurrent build waits for them twice.
 */
export class AttemptRequestExpiry1764669600000 implements MigrationInterface {
  name = 'AttemptRequestExpiry1764669600000';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE delivery_attempts ADD COLUMN IF NOT EXISTS request_expired_at timestamptz`);
    await db.query(`SET lock_timeout = '10min'`);
    try {
      await createIndexConcurrently(
        db,
        INDEX,
        'ON delivery_attempts (started_at) WHERE request_headers IS NOT NULL',
      );
    } finally {
      await db.query(`RESET lock_timeout`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${INDEX}`);
    await db.query(`ALTER TABLE delivery_attempts DROP COLUMN IF EXISTS request_expired_at`);
  }
}
