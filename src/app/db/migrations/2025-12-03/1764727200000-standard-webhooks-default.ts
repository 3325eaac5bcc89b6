import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Standard Webhooks on by default for new webhooks (issue 37, item 4): the column's default follows
 * the service's, so a row inserted without the field sends the scheme's headers too. Existing
 * webhooks keep their setting and send as before.
 */
export class StandardWebhooksDefault1764727200000 implements MigrationInterface {
  name = 'StandardWebhooksDefault1764727200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks ALTER COLUMN standard_webhooks SET DEFAULT true`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks ALTER COLUMN standard_webhooks SET DEFAULT false`);
  }
}
