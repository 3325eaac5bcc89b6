import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Workspace creation bounded per person (issue 34, item 6; docs/security.md, "Limits"): each user
 * counts the workspaces they created themselves (sign-up's first and the web app's), and no more
 * than WORKSPACES_PER_PERSON are made. A count on the person, not a count of rows, so nothing a
 * person can do later (leave, be removed, a future deletion) hands a place back.
 *
 * Workspaces made before this count for their first member, who signed them up (or was made their
 * Admin from the CLI): an account that already made many keeps them but makes no more.
 */
export class WorkspacesCreated1764694800000 implements MigrationInterface {
  name = 'WorkspacesCreated1764694800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users ADD COLUMN workspaces_created integer NOT NULL DEFAULT 0`);
    await db.query(`
      UPDATE users u SET workspaces_created = firsts.n
      FROM (
        SELECT user_id, count(*)::int AS n
        FROM (
          SELECT DISTINCT ON (workspace_id) workspace_id, user_id
          FROM members
          ORDER BY workspace_id, created_at, user_id
        ) first_members
        GROUP BY user_id
      ) firsts
      WHERE firsts.user_id = u.id`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE users DROP COLUMN workspaces_created`);
  }
}
