import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth client registration limits (issue 24): a client's last use (a grant or token issued to it),
 * so clients nobody uses can be removed (src/oauth/registration/unused-clients.ts). Clients registered before
 * count as used now: each gets its full 30 days from here.
 */
export class OAuthClientLimits1764658800000 implements MigrationInterface {
  name = 'OAuthClientLimits1764658800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_store ADD COLUMN last_used_at timestamptz`);
    await db.query(`UPDATE oauth_store SET last_used_at = now() WHERE model = 'Client'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE oauth_store DROP COLUMN last_used_at`);
  }
}
