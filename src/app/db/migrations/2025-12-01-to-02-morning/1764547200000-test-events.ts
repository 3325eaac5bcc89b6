import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * "Send test event": a delivery may be a test (`trigger = 'test'`), and its sample event is kept
 * in stored_events (`kind = 'test'`) so that retries, Event Details and resend read it as sent.
 */
export class TestEvents1764547200000 implements MigrationInterface {
  name = 'TestEvents1764547200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE deliveries DROP CONSTRAINT deliveries_trigger_check`);
    await db.query(
      `ALTER TABLE deliveries ADD CONSTRAINT deliveries_trigger_check CHECK (trigger IN ('event', 'resend', 'test'))`,
    );
    await db.query(`ALTER TABLE stored_events DROP CONSTRAINT stored_events_kind_check`);
    await db.query(
      `ALTER TABLE stored_events ADD CONSTRAINT stored_events_kind_check CHECK (kind IN ('messaging', 'legacy', 'test'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM deliveries WHERE trigger = 'test'`);
    await db.query(`DELETE FROM stored_events WHERE kind = 'test'`);
    await db.query(`ALTER TABLE deliveries DROP CONSTRAINT deliveries_trigger_check`);
    await db.query(
      `ALTER TABLE deliveries ADD CONSTRAINT deliveries_trigger_check CHECK (trigger IN ('event', 'resend'))`,
    );
    await db.query(`ALTER TABLE stored_events DROP CONSTRAINT stored_events_kind_check`);
    await db.query(
      `ALTER TABLE stored_events ADD CONSTRAINT stored_events_kind_check CHECK (kind IN ('messaging', 'legacy'))`,
    );
  }
}
