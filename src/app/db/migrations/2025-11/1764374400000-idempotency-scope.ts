import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stored idempotency answers belong to one workspace, key owner and write (method and route, or
 * MCP tool and action): issue 10, hole 3. Answers kept before this change name no workspace, so
 * they are forgotten (they would expire within 24 hours anyway).
 */
export class IdempotencyScope1764374400000 implements MigrationInterface {
  name = 'IdempotencyScope1764374400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM idempotency_keys`);
    await db.query(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey`);
    await db.query(`
      ALTER TABLE idempotency_keys
        ADD COLUMN workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        ADD COLUMN scope text NOT NULL`);
    await db.query(`ALTER TABLE idempotency_keys ADD PRIMARY KEY (workspace_id, user_id, scope, key)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM idempotency_keys`);
    await db.query(`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey`);
    await db.query(`ALTER TABLE idempotency_keys DROP COLUMN workspace_id, DROP COLUMN scope`);
    await db.query(`ALTER TABLE idempotency_keys ADD PRIMARY KEY (user_id, key)`);
  }
}
