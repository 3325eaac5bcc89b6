import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint failure notices and auto-disable (issue 37, docs/deliveries.md#when-an-endpoint-keeps-failing):
 * a webhook the service disabled says why and since when; an endpoint's Failing episode is
 * announced once (whichever worker saw it first); the notices of the webhook's owner and the
 * workspace's Admins, each mailed once; the operational events a webhook subscribes to, kept as
 * sent in stored_events.
 */
export class EndpointAlerts1764723600000 implements MigrationInterface {
  name = 'EndpointAlerts1764723600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE webhooks ADD COLUMN disabled_reason text, ADD COLUMN disabled_at timestamptz,
         ADD COLUMN operational_events text[] NOT NULL DEFAULT '{}'`,
    );
    // Beside webhooks_events_idx, so a subscriber lookup over both lists stays on indexes.
    await db.query(
      `CREATE INDEX webhooks_operational_events_idx ON webhooks USING gin (operational_events) WHERE enabled`,
    );
    await db.query(`ALTER TABLE endpoint_states ADD COLUMN failing_announced_at timestamptz`);
    await db.query(`
      CREATE TABLE notices (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        webhook_id uuid REFERENCES webhooks (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('endpoint.failing', 'endpoint.disabled')),
        title text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        dismissed_at timestamptz,
        mailed_at timestamptz
      )`);
    // A reader's open notices, newest first.
    await db.query(`CREATE INDEX notices_reader_idx ON notices (workspace_id, user_id, created_at DESC)`);
    await db.query(`CREATE INDEX notices_unmailed_idx ON notices (created_at) WHERE mailed_at IS NULL`);
    await db.query(`ALTER TABLE stored_events DROP CONSTRAINT stored_events_kind_check`);
    await db.query(
      `ALTER TABLE stored_events ADD CONSTRAINT stored_events_kind_check CHECK (kind IN ('messaging', 'legacy', 'test', 'operational'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM stored_events WHERE kind = 'operational'`);
    await db.query(`ALTER TABLE stored_events DROP CONSTRAINT stored_events_kind_check`);
    await db.query(
      `ALTER TABLE stored_events ADD CONSTRAINT stored_events_kind_check CHECK (kind IN ('messaging', 'legacy', 'test'))`,
    );
    await db.query(`DROP TABLE notices`);
    await db.query(`ALTER TABLE endpoint_states DROP COLUMN failing_announced_at`);
    await db.query(
      `ALTER TABLE webhooks DROP COLUMN disabled_reason, DROP COLUMN disabled_at, DROP COLUMN operational_events`,
    );
  }
}
