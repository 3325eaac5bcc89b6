import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Connected messaging accounts, and the events stored as sent: messaging events (kept only while
 * a webhook subscribes to them) and the events of imported legacy deliveries.
 */
export class Messaging1764288000000 implements MigrationInterface {
  name = 'Messaging1764288000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE connected_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        provider text NOT NULL CHECK (length(provider) BETWEEN 1 AND 50),
        account_id text NOT NULL CHECK (length(account_id) BETWEEN 1 AND 200),
        display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 200),
        signing_secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE UNIQUE INDEX connected_accounts_key ON connected_accounts (workspace_id, provider, account_id)`,
    );
    await db.query(`
      CREATE TABLE stored_events (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('messaging', 'legacy')),
        event text NOT NULL,
        connected_account_id uuid REFERENCES connected_accounts (id) ON DELETE SET NULL,
        provider_event_id text,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        dispatched_at timestamptz
      )`);
    // The provider's own event id makes a replayed provider event a no-op.
    await db.query(
      `CREATE UNIQUE INDEX stored_events_provider_key ON stored_events (connected_account_id, provider_event_id) WHERE provider_event_id IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX stored_events_undispatched_idx ON stored_events (occurred_at) WHERE dispatched_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE stored_events`);
    await db.query(`DROP TABLE connected_accounts`);
  }
}
