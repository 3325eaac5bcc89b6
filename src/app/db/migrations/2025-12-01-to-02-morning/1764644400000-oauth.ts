import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth for chat assistants (issue 15). `oauth_store` is oidc-provider's storage: one row per
 * model and id, the id kept only as its SHA-256 (an access token, refresh token or code is its own
 * id, so no usable token is at rest). `oauth_connections` is what a person sees in Settings →
 * Connected apps: one per consent, bound to the workspace chosen there, the user and the client.
 */
export class OAuth1764644400000 implements MigrationInterface {
  name = 'OAuth1764644400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE oauth_store (
        model text NOT NULL,
        id_hash text NOT NULL,
        payload jsonb NOT NULL,
        grant_id text,
        uid_hash text,
        user_code_hash text,
        expires_at timestamptz,
        PRIMARY KEY (model, id_hash)
      )`);
    await db.query(`CREATE INDEX oauth_store_grant_idx ON oauth_store (grant_id) WHERE grant_id IS NOT NULL`);
    await db.query(
      `CREATE INDEX oauth_store_uid_idx ON oauth_store (model, uid_hash) WHERE uid_hash IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX oauth_store_user_code_idx ON oauth_store (model, user_code_hash) WHERE user_code_hash IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX oauth_store_expiry_idx ON oauth_store (expires_at) WHERE expires_at IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE oauth_connections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        client_id text NOT NULL,
        client_name text NOT NULL,
        redirect_host text NOT NULL,
        grant_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX oauth_connections_owner_idx ON oauth_connections (workspace_id, user_id, created_at DESC)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE oauth_connections`);
    await db.query(`DROP TABLE oauth_store`);
  }
}
