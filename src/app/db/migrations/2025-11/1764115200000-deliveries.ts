import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries (docs/deliveries.md#the-delivery-log) and their attempt history. A delivery outlives its
 * webhook (no foreign key to webhooks): "Deleting a webhook keeps its past deliveries".
 */
export class Deliveries1764115200000 implements MigrationInterface {
  name = 'Deliveries1764115200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        webhook_id uuid NOT NULL,
        event_id uuid NOT NULL,
        event text NOT NULL,
        url text NOT NULL,
        element jsonb,
        trigger text NOT NULL CHECK (trigger IN ('event', 'resend')),
        resend_of uuid REFERENCES deliveries (id) ON DELETE SET NULL,
        sources_version integer,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
        status_code integer,
        response_message text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        workflow_started_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One automatic delivery per webhook and event, whatever dispatches it twice.
    await db.query(
      `CREATE UNIQUE INDEX deliveries_event_key ON deliveries (webhook_id, event_id) WHERE trigger = 'event'`,
    );
    await db.query(
      `CREATE INDEX deliveries_workspace_idx ON deliveries (workspace_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX deliveries_webhook_idx ON deliveries (webhook_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX deliveries_unstarted_idx ON deliveries (created_at) WHERE workflow_started_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE delivery_attempts (
        delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
        attempt integer NOT NULL CHECK (attempt BETWEEN 1 AND 10),
        started_at timestamptz NOT NULL,
        duration_ms integer NOT NULL,
        url text NOT NULL,
        status_code integer,
        response_message text,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed')),
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery_attempts`);
    await db.query(`DROP TABLE deliveries`);
  }
}
