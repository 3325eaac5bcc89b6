import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhooks (docs/api.md#rest-endpoints). Secrets and header values are stored encrypted. */
export class Webhooks1764028800000 implements MigrationInterface {
  name = 'Webhooks1764028800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        url text NOT NULL,
        description text CHECK (length(description) <= 500),
        events text[] NOT NULL CHECK (cardinality(events) >= 1),
        secret_sealed text,
        headers_sealed text,
        header_names text[] NOT NULL DEFAULT '{}',
        body_template text,
        enabled boolean NOT NULL DEFAULT true,
        record_trigger jsonb,
        record_sources jsonb,
        record_owner_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
        schema_revision integer,
        sources_version integer NOT NULL DEFAULT 1,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (record_trigger IS NULL OR record_sources IS NULL)
      )`);
    await db.query(
      `CREATE INDEX webhooks_workspace_idx ON webhooks (workspace_id, created_at DESC, id DESC)`,
    );
    await db.query(`CREATE INDEX webhooks_events_idx ON webhooks USING gin (events) WHERE enabled`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks`);
  }
}
