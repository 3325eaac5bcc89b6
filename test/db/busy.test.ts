import { Client } from 'pg';
import { createDataSource } from '../../src/app/db/data-source';
import { busyErrorFrom, BUSY_MESSAGE } from '../../src/errors/busy';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

describe('database overload becomes the busy refusal (real PostgreSQL)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('recognises a write that waited too long behind another transaction', async () => {
    const holder = new Client({ connectionString: db.url });
    await holder.connect();
    await holder.query(`INSERT INTO workspaces (name) VALUES ('Acme')`);
    await holder.query('BEGIN');
    await holder.query(`UPDATE workspaces SET name = 'Held' WHERE name = 'Acme'`);
    try {
      const waited = await db.dataSource
        .transaction(async (manager) => {
          await manager.query(`SET LOCAL lock_timeout = '200ms'`);
          await manager.query(`UPDATE workspaces SET name = 'Waiting' WHERE name = 'Acme'`);
        })
        .catch((error: unknown) => error);
      const refusal = busyErrorFrom(waited);
      expect(refusal?.kind).toBe('rate_limit');
      expect(refusal?.message).toBe(BUSY_MESSAGE);
      expect(refusal?.options.retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('recognises a pool that could not hand out a connection in time', async () => {
    const tiny = createDataSource({ url: db.url, poolSize: 1 });
    await tiny.initialize();
    const runner = tiny.createQueryRunner();
    await runner.connect(); // holds the only connection
    try {
      // Shorten the pool's 5 s acquire timeout for the test.
      (
        tiny.driver as unknown as { master: { options: { connectionTimeoutMillis: number } } }
      ).master.options.connectionTimeoutMillis = 200;
      const waited = await tiny.query('SELECT 1').catch((error: unknown) => error);
      expect(busyErrorFrom(waited)?.kind).toBe('rate_limit');
    } finally {
      await runner.release();
      await tiny.destroy();
    }
  });

  it('leaves other database errors alone (they are unexpected: 500)', async () => {
    const error = await db.dataSource.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(busyErrorFrom(error)).toBeUndefined();
  });
});
