import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signatures that standard libraries verify, and secrets that rotate (issue 27, item 2): a webhook
 * may send the Standard Webhooks headers beside X-Webhook-Signature, off by default (existing
 * webhooks send as before); after a rotation the previous secret, sealed like the current one,
 * keeps signing `webhook-signature` until its grace period ends, then a sweep drops it.
 */
export class WebhookSignatures1764680400000 implements MigrationInterface {
  name = 'WebhookSignatures1764680400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhooks
        ADD COLUMN standard_webhooks boolean NOT NULL DEFAULT false,
        ADD COLUMN previous_secret_sealed text,
        ADD COLUMN previous_secret_expires_at timestamptz,
        ADD CONSTRAINT webhooks_previous_secret_check
          CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE webhooks
        DROP CONSTRAINT webhooks_previous_secret_check,
        DROP COLUMN previous_secret_expires_at,
        DROP COLUMN previous_secret_sealed,
        DROP COLUMN standard_webhooks`);
  }
}
