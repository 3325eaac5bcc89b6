import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Workspaces, users, roles and members (docs/app-api.md#routes, docs/api.md#permissions). */
export class Identity1763769600000 implements MigrationInterface {
  name = 'Identity1763769600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE workspaces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
        plan_state text NOT NULL DEFAULT 'none' CHECK (plan_state IN ('none', 'active', 'trial_ended', 'lapsed')),
        schema_revision integer NOT NULL DEFAULT 1,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL CHECK (email = lower(email)),
        name text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX users_email_key ON users (email)`);
    await db.query(`
      CREATE TABLE roles (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        builtin text CHECK (builtin IN ('admin', 'member', 'viewer')),
        is_admin boolean NOT NULL DEFAULT false,
        api_read text NOT NULL DEFAULT 'none' CHECK (api_read IN ('none', 'all')),
        api_create boolean NOT NULL DEFAULT false,
        api_edit boolean NOT NULL DEFAULT false,
        api_delete boolean NOT NULL DEFAULT false,
        default_record_access text NOT NULL DEFAULT 'none' CHECK (default_record_access IN ('none', 'all')),
        record_access jsonb NOT NULL DEFAULT '{}'::jsonb,
        restricted_field_ids jsonb NOT NULL DEFAULT '[]'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX roles_workspace_name_key ON roles (workspace_id, lower(name))`);
    await db.query(
      `CREATE UNIQUE INDEX roles_workspace_builtin_key ON roles (workspace_id, builtin) WHERE builtin IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE members (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role_id uuid NOT NULL REFERENCES roles (id),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, user_id)
      )`);
    await db.query(`CREATE INDEX members_user_idx ON members (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE members`);
    await db.query(`DROP TABLE roles`);
    await db.query(`DROP TABLE users`);
    await db.query(`DROP TABLE workspaces`);
  }
}
