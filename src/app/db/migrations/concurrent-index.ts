import type { QueryRunner } from 'typeorm';

/**
 * Builds an index with CREATE INDEX CONCURRENTLY (in a migration with `transaction = false`), so
 * writes to a large table go on while it is built. A build that failed half-way left its index
 * INVALID: that one is dropped and built again. `definition` is what follows the index's name.
 */
export async function createIndexConcurrently(db: QueryRunner, index: string, definition: string) {
  const [leftover] = (await db.query(
    `SELECT NOT i.indisvalid AS invalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [index],
  )) as { invalid: boolean }[];
  if (leftover?.invalid) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  await db.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index} ${definition}`);
}
