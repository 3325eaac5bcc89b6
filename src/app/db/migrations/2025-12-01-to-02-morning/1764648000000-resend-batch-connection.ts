import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A batch of resends started over OAuth remembers the connection it was started with, so each of
 * its steps is refused once that app is disconnected, as a batch started with a key is once the
 * key is deleted.
 */
export class ResendBatchConnection1764648000000 implements MigrationInterface {
  name = 'ResendBatchConnection1764648000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE resend_batches ADD COLUMN oauth_connection_id uuid`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE resend_batches DROP COLUMN oauth_connection_id`);
  }
}
