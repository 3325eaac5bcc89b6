import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who created each workspace (issue 34, workspace floods): the workspaces one person created draw
 * from one request quota of that person (QUOTA_PER_PERSON), so five workspaces are not served five
 * times what one is. Null for a workspace made from the CLI (the operator's act, not counted).
 *
 * Workspaces made before this get their first member, as WorkspacesCreated counted them.
 */
export class WorkspaceCreator1764709200000 implements MigrationInterface {
  name = 'WorkspaceCreator1764709200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE workspaces ADD COLUMN created_by uuid REFERENCES users (id) ON DELETE SET NULL`,
    );
    await db.query(`
      UPDATE workspaces w SET created_by = firsts.user_id
      FROM (
        SELECT DISTINCT ON (workspace_id) workspace_id, user_id
        FROM members
        ORDER BY workspace_id, created_at, user_id
      ) firsts
      WHERE firsts.workspace_id = w.id`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE workspaces DROP COLUMN created_by`);
  }
}
