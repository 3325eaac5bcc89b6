import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a worker process claimed a delivery to start its workflow (docs/topology.md#eager-start): an
 * API process of the production topology leaves the start to the workers, and the first to claim a
 * row starts it, so two workers woken by the same notification do not both start it. A claimed row
 * whose workflow never started is the dispatch sweep's, as any unstarted one. A nullable column
 * without a default: added without rewriting the table.
 */
export class DeliveryStartClaims1764730800000 implements MigrationInterface {
  name = 'DeliveryStartClaims1764730800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries ADD COLUMN start_claimed_at timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries DROP COLUMN start_claimed_at`);
  }
}
