import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signatures that standard libraries verify (issue 27, item 2): a webhook may send the Standard
 * Webhooks headers beside X-Webhook-Signature, off by default (existing webhooks send as before).
 */
export class WebhookSignatures1764680400000 implements MigrationInterface {
  name = 'WebhookSignatures1764680400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks ADD COLUMN standard_webhooks boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks DROP COLUMN standard_webhooks`);
  }
}
