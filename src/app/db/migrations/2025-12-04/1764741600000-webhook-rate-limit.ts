import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A per-webhook rate limit (issue 37, item 3; docs/deliveries.md#rate-limit): the webhook's limit in
 * deliveries per second (null: none), and per limited webhook the time its next request may leave,
 * which every attempt claims and moves on by one interval. The slots live in their own table so the
 * claims never rewrite (or lock) the webhook's row.
 */
export class WebhookRateLimit1764741600000 implements MigrationInterface {
  name = 'WebhookRateLimit1764741600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE webhooks ADD COLUMN rate_limit integer NULL
         CONSTRAINT webhooks_rate_limit_range CHECK (rate_limit BETWEEN 1 AND 1000)`,
    );
    await db.query(
      `CREATE TABLE webhook_send_slots (
         webhook_id uuid PRIMARY KEY REFERENCES webhooks(id) ON DELETE CASCADE,
         next_at timestamptz NOT NULL
       )`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_send_slots`);
    await db.query(`ALTER TABLE webhooks DROP COLUMN rate_limit`);
  }
}
