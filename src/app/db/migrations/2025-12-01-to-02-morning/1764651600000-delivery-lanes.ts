import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery capacity (issue 23): each endpoint's state as its attempts show it (healthy, degraded,
 * failing, the reason and since when), and, per delivery, since when its next attempt waits for
 * capacity in the slow lane.
 */
export class DeliveryLanes1764651600000 implements MigrationInterface {
  name = 'DeliveryLanes1764651600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE endpoint_states (
        webhook_id uuid PRIMARY KEY REFERENCES webhooks(id) ON DELETE CASCADE,
        workspace_id uuid NOT NULL,
        state text NOT NULL CHECK (state IN ('healthy', 'degraded', 'failing')),
        reason text,
        since timestamptz NOT NULL,
        failures_in_a_row integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A new nullable column without a default: no rewrite of the deliveries table.
    await db.query(`ALTER TABLE deliveries ADD COLUMN waiting_since timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries DROP COLUMN waiting_since`);
    await db.query(`DROP TABLE endpoint_states`);
  }
}
