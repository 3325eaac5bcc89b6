import type { MigrationInterface, QueryRunner } from 'typeorm';
import { seedBuiltinModel } from '../../../../record-model/builtin-model';

/**
 * The record model (types and fields with stable ids), records with their links, assignments and
 * identities, the outbox of record events, and the history of data-model changes.
 */
export class Records1763942400000 implements MigrationInterface {
  name = 'Records1763942400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE record_types (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        builtin text,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await db.query(
      `CREATE UNIQUE INDEX record_types_name_key ON record_types (workspace_id, lower(name)) WHERE deleted_at IS NULL`,
    );
    await db.query(
      `CREATE UNIQUE INDEX record_types_builtin_key ON record_types (workspace_id, builtin) WHERE builtin IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE record_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        type_id uuid NOT NULL REFERENCES record_types (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        kind text NOT NULL CHECK (kind IN ('text','number','date','boolean','select','email','url','richText','formula','link')),
        config jsonb NOT NULL DEFAULT '{}'::jsonb,
        position integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await db.query(`CREATE INDEX record_fields_type_idx ON record_fields (type_id, position)`);
    await db.query(
      `CREATE UNIQUE INDEX record_fields_name_key ON record_fields (type_id, lower(name)) WHERE deleted_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE records (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        type_id uuid NOT NULL REFERENCES record_types (id),
        version integer NOT NULL DEFAULT 1,
        values jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'trashed', 'erased')),
        trashed_at timestamptz,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE INDEX records_list_idx ON records (workspace_id, type_id, status, created_at DESC, id DESC)`,
    );
    await db.query(`
      CREATE TABLE record_links (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        record_id uuid NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        field_id uuid NOT NULL REFERENCES record_fields (id) ON DELETE CASCADE,
        target_record_id uuid NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (record_id, field_id, target_record_id)
      )`);
    await db.query(`CREATE INDEX record_links_target_idx ON record_links (target_record_id)`);
    await db.query(`
      CREATE TABLE record_assignments (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        record_id uuid NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        PRIMARY KEY (record_id, user_id)
      )`);
    await db.query(`
      CREATE TABLE record_identities (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        record_id uuid NOT NULL REFERENCES records (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('email', 'phone', 'social')),
        value text NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
        PRIMARY KEY (record_id, kind, value)
      )`);
    // The outbox: one row per event, written in the transaction of the write that caused it.
    await db.query(`
      CREATE TABLE record_events (
        id uuid PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        event text NOT NULL,
        cause_id uuid NOT NULL,
        actor_id uuid,
        type_id uuid NOT NULL,
        record_id uuid NOT NULL,
        occurred_at timestamptz NOT NULL,
        data jsonb NOT NULL,
        dispatched_at timestamptz,
        scrubbed_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX record_events_undispatched_idx ON record_events (occurred_at) WHERE dispatched_at IS NULL`,
    );
    await db.query(`CREATE INDEX record_events_record_idx ON record_events (record_id, occurred_at)`);
    await db.query(`
      CREATE TABLE model_history (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        change text NOT NULL,
        schema_revision integer NOT NULL,
        actor_id uuid,
        details jsonb NOT NULL DEFAULT '{}'::jsonb,
        records_recalculated integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(
      `CREATE INDEX model_history_workspace_idx ON model_history (workspace_id, created_at DESC)`,
    );
    for (const { id } of (await db.query(`SELECT id FROM workspaces`)) as { id: string }[]) {
      await seedBuiltinModel(db.manager, id);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'model_history',
      'record_events',
      'record_identities',
      'record_assignments',
      'record_links',
      'records',
      'record_fields',
      'record_types',
    ]) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
