import { Client } from 'pg';
import { AttemptRequestExpiry1764669600000 } from '../../../src/app/db/migrations/2025-12-01-to-02-morning/1764669600000-attempt-request-expiry';
import { identityHooks } from '../../../src/app/services';
import { signUp } from '../../../src/identity/sign-in/accounts.service';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { writesDuring } from '../../helpers/writes-during';
import { seedInBulk } from '../../helpers/delivery-log';

const DELIVERIES = 50_000;
const SENDS_EACH = 4;
const INDEX = 'delivery_attempts_kept_request_idx';

/**
 * Issue 26: the migration behind the retention window of attempt request details adds its column
 * without rewriting the table and builds the sweep's index on a live table (CREATE INDEX
 * CONCURRENTLY), so attempts go on being written while a large history is indexed; and down()
 * undoes it.
 */
describe('attempt request expiry migration', () => {
  let db: TestDatabase;
  let workspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase(4);
    ({
      workspace: { id: workspaceId },
    } = await signUp(
      db.dataSource,
      {
        name: 'Ines',
        email: 'ines@example.com',
        password: 'plum kettle orbit 42',
        workspaceName: 'Expiry Co',
      },
      identityHooks,
    ));
    // The table as it was before this migration: 200,000 sends spread over 60 days, each with its
    // request kept (headers and a small body), as the service writes them.
    await migrate('down');
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
                               attempts, created_at)
       SELECT $1, gen_random_uuid(), gen_random_uuid(), 'record.updated', 'https://example.com/hook', 'event',
              'delivered', 200, $3::integer, now() - random() * interval '60 days'
         FROM generate_series(1, $2::integer)`,
        [workspaceId, DELIVERIES, SENDS_EACH],
      );
    });
    await db.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
                                      response_message, outcome, request_headers, request_body,
                                      request_body_sha256, request_body_bytes)
       SELECT d.id, n, 1, d.created_at + n * interval '10 seconds', 80, d.url, 200, 'OK', 'delivered',
              '[["Content-Type","application/json"],["X-Webhook-Signature","********"]]'::jsonb,
              '{"event":"record.updated","id":"' || d.event_id || '"}', md5(d.id::text) || md5(d.id::text), 70
         FROM deliveries d, generate_series(1, $1::integer) AS n`,
      [SENDS_EACH],
    );
    await db.dataSource.query(`ANALYZE delivery_attempts`);
  }, 180_000);

  afterAll(async () => {
    await db.drop();
  });

  async function migrate(direction: 'up' | 'down') {
    const runner = db.dataSource.createQueryRunner();
    try {
      await new AttemptRequestExpiry1764669600000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  const indexState = async () =>
    (await db.dataSource.query(
      `SELECT i.indisvalid AS valid, i.indisready AS ready FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = $1`,
      [INDEX],
    )) as { valid: boolean; ready: boolean }[];
  const hasColumn = async () =>
    (
      await db.dataSource.query(
        `SELECT 1 FROM information_schema.columns WHERE table_name = 'delivery_attempts' AND column_name = 'request_expired_at'`,
      )
    ).length === 1;

  it('adds the column and builds the index while another connection goes on writing attempts', async () => {
    expect(await hasColumn()).toBe(false);
    const [{ delivery }] = await db.dataSource.query(`SELECT id AS delivery FROM deliveries LIMIT 1`);
    // An older transaction (a report, say) on another table: a concurrent build waits for it to
    // end, as it would in production, which keeps the build going long enough to watch writes.
    const older = new Client({ connectionString: db.url });
    await older.connect();
    await older.query(`BEGIN ISOLATION LEVEL REPEATABLE READ`);
    await older.query(`SELECT count(*) FROM workspaces`);
    const writes = await writesDuring(
      db.url,
      (writer, n) =>
        writer.query(
          `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, url, outcome, request_headers,
                                          request_body, request_body_sha256, request_body_bytes)
           VALUES ($1, 1, $2, now(), 'https://example.com/hook', 'sending', '[]', '{}', 'f', 2)`,
          [delivery, 100 + n],
        ),
      async () => {
        let migrated = false;
        const migrating = migrate('up').then(() => (migrated = true));
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        // Still building: the writes counted below went on during the build, not after it.
        expect(migrated).toBe(false);
        await older.query(`COMMIT`);
        await migrating;
      },
    ).finally(() => older.end());

    // Attempts were committed all through the migration, each answered in a small part of it.
    expect(writes.took).toBeGreaterThan(1_500);
    expect(writes.during).toBeGreaterThan(100);
    expect(writes.slowest).toBeLessThan(writes.took / 5);
    const [{ written }] = await db.dataSource.query(
      `SELECT count(*)::int AS written FROM delivery_attempts WHERE send >= 100`,
    );
    expect(written).toBe(writes.writes);

    expect(await hasColumn()).toBe(true);
    expect(await indexState()).toEqual([{ valid: true, ready: true }]);
    // The new column is empty on every existing row: nothing is expired by the migration itself.
    const [{ expired }] = await db.dataSource.query(
      `SELECT count(*)::int AS expired FROM delivery_attempts WHERE request_expired_at IS NOT NULL`,
    );
    expect(expired).toBe(0);
  }, 120_000);

  it('is what the sweep reads: the oldest kept requests come from the index, not from a scan', async () => {
    await db.dataSource.query(`ANALYZE delivery_attempts`);
    const plan = (await db.dataSource.query(
      `EXPLAIN SELECT delivery_id, attempt, send FROM delivery_attempts
        WHERE request_headers IS NOT NULL AND started_at < now() - interval '30 days'
        ORDER BY started_at LIMIT 5000 FOR UPDATE SKIP LOCKED`,
    )) as { 'QUERY PLAN': string }[];
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toContain(INDEX);
    expect(text).not.toContain('Seq Scan');
  });

  it('builds again over a build that failed half-way (an INVALID index)', async () => {
    // A concurrent build that fails leaves its index behind, INVALID: here a unique one over
    // duplicate values, under the migration's index name.
    await db.dataSource.query(`DROP INDEX ${INDEX}`);
    await expect(
      db.dataSource.query(`CREATE UNIQUE INDEX CONCURRENTLY ${INDEX} ON delivery_attempts (url)`),
    ).rejects.toThrow(/could not create unique index/);
    expect(await indexState()).toEqual([{ valid: false, ready: expect.any(Boolean) }]);
    await migrate('up');
    expect(await indexState()).toEqual([{ valid: true, ready: true }]);
  }, 60_000);

  it('drops the index and the column on down() and adds them again on up()', async () => {
    await migrate('down');
    expect(await indexState()).toEqual([]);
    expect(await hasColumn()).toBe(false);
    await migrate('up');
    expect(await indexState()).toEqual([{ valid: true, ready: true }]);
    expect(await hasColumn()).toBe(true);
  }, 60_000);
});
