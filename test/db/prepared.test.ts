import { createDataSource } from '../../src/app/db/data-source';
import { columnsOf, PreparedSelect, PreparedStatement } from '../../src/db/prepared';
import { busyErrorFrom } from '../../src/errors/busy';
import { Workspace } from '../../src/identity/workspace.entity';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

describe('prepared statements (real PostgreSQL)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  const workspaceNamed = new PreparedSelect(['name'] as const, (manager, parameters) =>
    manager.createQueryBuilder(Workspace, 'w').where('w.name = :name', parameters),
  );

  it('plans once per connection: the second run finds the statement prepared on its connection', async () => {
    const renamed = new PreparedStatement(
      (manager) =>
        `UPDATE workspaces SET name = $2 WHERE name = $1 RETURNING ${columnsOf(manager, Workspace, 'workspaces')}`,
    );
    await db.dataSource.query(`INSERT INTO workspaces (name) VALUES ('Prepared Ltd')`);
    await db.dataSource.transaction(async (manager) => {
      const first = await renamed.run(manager, ['Prepared Ltd', 'Prepared Two']);
      expect(first).toEqual([
        expect.objectContaining({ name: 'Prepared Two', schema_revision: expect.any(Number) }),
      ]);
      const prepared: { name: string }[] = await manager.query(
        `SELECT name FROM pg_prepared_statements WHERE statement LIKE 'UPDATE workspaces SET name = $2%'`,
      );
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^crm_[0-9a-f]{24}$/);
      // Same connection, same statement: executed again, not prepared a second time.
      await renamed.run(manager, ['Prepared Two', 'Prepared Ltd']);
      expect(
        await manager.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1`, [
          prepared[0]!.name,
        ]),
      ).toEqual([{ n: 1 }]);
    });
  });

  it('runs inside the caller’s transaction: a rollback undoes it', async () => {
    const insert = new PreparedStatement(`INSERT INTO workspaces (name) VALUES ($1)`);
    await db.dataSource
      .transaction(async (manager) => {
        await insert.run(manager, ['Rolled Back Inc']);
        expect(await workspaceNamed.first(manager, { name: 'Rolled Back Inc' })).toBeDefined();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await workspaceNamed.first(db.dataSource.manager, { name: 'Rolled Back Inc' })).toBeUndefined();
  });

  it('keeps answering after a migration adds a column while connections hold the plan', async () => {
    const pool = createDataSource({ url: db.url, poolSize: 1 });
    await pool.initialize();
    try {
      await pool.query(`INSERT INTO workspaces (name) VALUES ('Migrated Co')`);
      expect(await workspaceNamed.first(pool.manager, { name: 'Migrated Co' })).toMatchObject({
        w_name: 'Migrated Co',
      });
      await db.dataSource.query(`ALTER TABLE workspaces ADD COLUMN prepared_test_note text`);
      try {
        // The one pooled connection still has the statement prepared: named columns keep their shape.
        expect(await workspaceNamed.first(pool.manager, { name: 'Migrated Co' })).toMatchObject({
          w_name: 'Migrated Co',
        });
      } finally {
        await db.dataSource.query(`ALTER TABLE workspaces DROP COLUMN prepared_test_note`);
      }
    } finally {
      await pool.destroy();
    }
  });

  it('passes PostgreSQL’s errors on as the driver raised them: a lock wait too long is still "busy"', async () => {
    const rename = new PreparedStatement(`UPDATE workspaces SET name = $2 WHERE name = $1`);
    await db.dataSource.query(`INSERT INTO workspaces (name) VALUES ('Locked Ltd')`);
    const holder = db.dataSource.createQueryRunner();
    await holder.startTransaction();
    try {
      await holder.query(`UPDATE workspaces SET name = 'Locked Ltd' WHERE name = 'Locked Ltd'`);
      const error = await db.dataSource
        .transaction(async (manager) => {
          await manager.query(`SET LOCAL lock_timeout = '100ms'`);
          await rename.run(manager, ['Locked Ltd', 'Waited Ltd']);
        })
        .catch((caught: unknown) => caught);
      expect((error as { code?: string }).code).toBe('55P03');
      expect(busyErrorFrom(error)?.kind).toBe('rate_limit');
    } finally {
      await holder.rollbackTransaction();
      await holder.release();
    }
  });

  it('refuses SQL that returns * (a running process would fail once a migration adds a column)', () => {
    expect(() => new PreparedStatement('SELECT * FROM workspaces WHERE id = $1')).toThrow(
      /names its columns/,
    );
    expect(() => new PreparedStatement('UPDATE workspaces SET name = $2 WHERE id = $1 RETURNING *')).toThrow(
      /names its columns/,
    );
    expect(() => new PreparedStatement('SELECT w.*, 1 FROM workspaces w')).toThrow(/names its columns/);
    expect(() => new PreparedStatement('SELECT count(*) AS n FROM workspaces')).not.toThrow();
  });

  it('refuses a select whose builder put a value into the query instead of a parameter', async () => {
    const baked = new PreparedSelect(['name'] as const, (manager) =>
      manager.createQueryBuilder(Workspace, 'w').where('w.name = :name', { name: 'baked in' }),
    );
    await expect(baked.first(db.dataSource.manager, { name: 'x' })).rejects.toThrow(
      /not one of its stand-ins/,
    );
  });
});
