import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations (issue 34, item 1): an Admin invites an address; the person joins only by accepting
 * the e-mailed link (signed in with a verified account of that address, or creating one by the
 * link). The token is stored as its SHA-256 only. One pending invitation per workspace and address:
 * inviting again replaces it, so only the newest link works.
 */
export class Invitations1764705600000 implements MigrationInterface {
  name = 'Invitations1764705600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        email text NOT NULL,
        role_id uuid NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz
      )`);
    await db.query(`CREATE UNIQUE INDEX invitations_token_hash_key ON invitations (token_hash)`);
    await db.query(
      `CREATE UNIQUE INDEX invitations_pending_key ON invitations (workspace_id, email) WHERE accepted_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE invitations`);
  }
}
