import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read-only connections for chat assistants (issue 27, item 4): a person may connect an app so that
 * it only reads (docs/api.md, "OAuth for chat assistants"). Existing connections keep every tool.
 */
export class OAuthReadOnly1764687600000 implements MigrationInterface {
  name = 'OAuthReadOnly1764687600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_connections ADD COLUMN read_only boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_connections DROP COLUMN read_only`);
  }
}
