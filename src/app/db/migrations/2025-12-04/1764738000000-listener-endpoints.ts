import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `listen` sessions as temporary endpoints (issue 37, item 2; docs/listen.md): a webhook row whose
 * `listener_until` is set belongs to a `listen` stream and lives until then (the stream extends it
 * while open). Regular webhooks keep null. The partial index serves the sweep that removes ended ones.
 */
export class ListenerEndpoints1764738000000 implements MigrationInterface {
  name = 'ListenerEndpoints1764738000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks ADD COLUMN listener_until timestamptz`);
    await db.query(
      `CREATE INDEX webhooks_listener_until_idx ON webhooks (listener_until) WHERE listener_until IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhooks_listener_until_idx`);
    await db.query(`ALTER TABLE webhooks DROP COLUMN listener_until`);
  }
}
