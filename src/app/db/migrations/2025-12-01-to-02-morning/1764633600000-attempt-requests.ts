import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What was sent and what came back, per send of an attempt: the request headers as sent (secrets
 * masked), the body (up to the display limit) with its SHA-256 and size, when its record's erasure
 * removed it, and the receiver's headers (capped, credentials masked). Older sends keep nulls:
 * Event Details says "not recorded".
 */
export class AttemptRequests1764633600000 implements MigrationInterface {
  name = 'AttemptRequests1764633600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE delivery_attempts
        ADD COLUMN request_headers jsonb,
        ADD COLUMN request_body text,
        ADD COLUMN request_body_sha256 text,
        ADD COLUMN request_body_bytes integer,
        ADD COLUMN request_body_erased_at timestamptz,
        ADD COLUMN response_headers jsonb,
        ADD COLUMN response_headers_omitted integer`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE delivery_attempts
        DROP COLUMN request_headers,
        DROP COLUMN request_body,
        DROP COLUMN request_body_sha256,
        DROP COLUMN request_body_bytes,
        DROP COLUMN request_body_erased_at,
        DROP COLUMN response_headers,
        DROP COLUMN response_headers_omitted`);
  }
}
