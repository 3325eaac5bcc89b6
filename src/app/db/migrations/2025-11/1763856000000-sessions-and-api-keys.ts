import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Web sessions, API keys, and the onboarding flag of a workspace. */
export class SessionsAndApiKeys1763856000000 implements MigrationInterface {
  name = 'SessionsAndApiKeys1763856000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE workspaces ADD COLUMN onboarded_at timestamptz`);
    await db.query(`
      CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        workspace_id uuid REFERENCES workspaces (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX sessions_user_idx ON sessions (user_id)`);
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
        kind text NOT NULL CHECK (kind IN ('standard', 'quick')),
        client_kind text,
        key_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz,
        last_used_at timestamptz
      )`);
    await db.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await db.query(`CREATE INDEX api_keys_owner_idx ON api_keys (workspace_id, user_id, created_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_keys`);
    await db.query(`DROP TABLE sessions`);
    await db.query(`ALTER TABLE workspaces DROP COLUMN onboarded_at`);
  }
}
