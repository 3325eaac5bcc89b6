import type { QueryRunner } from 'typeorm';

/** An index's name and what follows `ON <table>` in its CREATE INDEX. */
export type IndexDefinition = readonly [name: string, definition: string];

/**
 * Builds indexes with CREATE INDEX CONCURRENTLY, so writes to a large table go on while they are
 * built; the migration that calls it runs outside a transaction (`transaction = false`), as a
 * concurrent build cannot run inside one. A build that failed half-way (an INVALID index) is
 * dropped and built again. The session may wait longer than the pool's lock_timeout for older
 * transactions to end, since a concurrent build waits for them twice.
 */
export async function createIndexesConcurrently(
  db: QueryRunner,
  table: string,
  indexes: readonly IndexDefinition[],
): Promise<void> {
  await db.query(`SET lock_timeout = '10min'`);
  try {
    for (const [index, definition] of indexes) {
      const [leftover] = (await db.query(
        `SELECT NOT i.indisvalid AS invalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
        [index],
      )) as { invalid: boolean }[];
      if (leftover?.invalid) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
      await db.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${index} ON ${table} ${definition}`);
    }
  } finally {
    await db.query(`RESET lock_timeout`);
  }
}

/** Drops the indexes, the last built first, without blocking writes. */
export async function dropIndexesConcurrently(
  db: QueryRunner,
  indexes: readonly IndexDefinition[],
): Promise<void> {
  for (const [index] of [...indexes].reverse()) await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
}
