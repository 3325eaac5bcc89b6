import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The deliveries waiting for capacity (docs/capacity.md): those held in
 * PostgreSQL before their workflow starts, per endpoint and oldest first, and those whose attempt
 * waits in the slow lane, per endpoint. The dispatch sweep's index leaves the held ones out (they are
 * released, not swept). Partial indexes hold only such rows; each is built CONCURRENTLY, outside a
 * transaction, so writes to a large deliveries table go on while it is built.
 */
export class DeliveriesWaitingIndex1764651600001 implements MigrationInterface {
  name = 'DeliveriesWaitingIndex1764651600001';
  transaction = false as const;

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_held_idx ON deliveries (webhook_id, created_at)
        WHERE waiting_since IS NOT NULL AND workflow_started_at IS NULL`,
    );
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_queued_idx ON deliveries (webhook_id)
        WHERE waiting_since IS NOT NULL AND workflow_started_at IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_to_start_idx ON deliveries (created_at)
        WHERE workflow_started_at IS NULL AND waiting_since IS NULL`,
    );
    await db.query(`DROP INDEX CONCURRENTLY IF EXISTS deliveries_unstarted_idx`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS deliveries_unstarted_idx ON deliveries (created_at)
        WHERE workflow_started_at IS NULL`,
    );
    for (const index of ['deliveries_to_start_idx', 'deliveries_queued_idx', 'deliveries_held_idx'])
      await db.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index}`);
  }
}
