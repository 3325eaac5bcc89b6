import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Answers to REST writes by idempotency key (docs/api.md#idempotent-writes), kept 24 hours. */
export class IdempotencyKeys1764201600000 implements MigrationInterface {
  name = 'IdempotencyKeys1764201600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_keys (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        key text NOT NULL,
        request_fingerprint text NOT NULL,
        status integer,
        body jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, key)
      )`);
    await db.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE idempotency_keys`);
  }
}
