import type { MigrationInterface, QueryRunner } from 'typeorm';

export const DELIVERY_RECORD_STATISTICS = 'deliveries_record_id_stats';

/**
 * Statistics of the record a delivery is about (`element ->> 'recordId'`, the recordId filter of
 * the log). `deliveries_workspace_record_idx` is partial, and PostgreSQL's planner ignores the
 * statistics ANALYZE gathers for a partial index's expressions, so without these it estimated each
 * record at 0.5 % of the log (its default for an equality it knows nothing of: 1,000 deliveries of
 * 200,000 where a record had 10) and could read recordId + status from the status index, walking
 * every failed delivery of the workspace to find a record's few. An expression statistics object
 * (PostgreSQL 14+) is one that ANALYZE fills and the planner reads; it costs one more column's
 * sample at each ANALYZE and no work on writes.
 */
export class DeliveryRecordStatistics1764734400000 implements MigrationInterface {
  name = 'DeliveryRecordStatistics1764734400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE STATISTICS IF NOT EXISTS ${DELIVERY_RECORD_STATISTICS} ON (element ->> 'recordId') FROM deliveries`,
    );
    // ANALYZE reads a sample (30,000 rows at the default target), not the table, and takes no
    // lock that writes wait for; without it the statistics stay empty until autovacuum's next one.
    await db.query(`ANALYZE deliveries`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP STATISTICS IF EXISTS ${DELIVERY_RECORD_STATISTICS}`);
  }
}
