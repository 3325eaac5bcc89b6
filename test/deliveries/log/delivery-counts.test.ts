import type { QueryRunner } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DeliveryCounts1764666000000 } from '../../../src/app/db/migrations/2025-12-01-to-02-morning/1764666000000-delivery-counts';
import { CountSendingAsPending1764730800001 } from '../../../src/app/db/migrations/2025-12-03/1764730800001-count-sending-as-pending';
import { identityHooks } from '../../../src/app/services';
import { ALL_WEBHOOKS, foldDeliveryCounts } from '../../../src/deliveries/store/delivery-counts.repository';
import { countDrift, type CountDrift } from '../../../src/deliveries/store';
import { loadDeliveryStats } from '../../../src/deliveries/log/delivery-stats.repository';
import { loadWebhookHealth } from '../../../src/deliveries/log/webhook-health.repository';
import { signUp } from '../../../src/identity/sign-in/accounts.service';
import { statsWindow } from '../../../src/shared/deliveries/delivery-stats';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { seedInBulk } from '../../helpers/delivery-log';

const WEBHOOKS = [randomUUID(), randomUUID(), randomUUID()];

/**
 * Issue 26: the chart's and the health column's counts are kept as deliveries change (triggers in
 * the delivery's own transaction, folded by the workers), and equal a recount of the log whatever
 * happens to the writes: concurrent writers, retries, resends, a crash mid-transaction, a fold
 * running alongside, and the migration that counts an existing log while writes go on.
 */
describe('delivery counts', () => {
  let db: TestDatabase;
  let workspaceId: string;
  let otherWorkspaceId: string;

  beforeAll(async () => {
    db = await createTestDatabase(12);
    const workspaceOf = async (email: string) =>
      (
        await signUp(
          db.dataSource,
          { name: 'Ada', email, password: 'plum kettle orbit 42', workspaceName: email },
          identityHooks,
        )
      ).workspace.id;
    workspaceId = await workspaceOf('ada@example.com');
    otherWorkspaceId = await workspaceOf('other@example.com');
  }, 60_000);

  afterAll(async () => {
    await db.drop();
  });

  const drift = (workspace = workspaceId) =>
    countDrift((sql, parameters) => db.dataSource.query(sql, parameters) as Promise<CountDrift[]>, workspace);

  const connect = async () => {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    return client;
  };

  /** Inserts deliveries in one statement, created `hoursAgo` hours ago; returns their ids. */
  const insert = async (
    client: Client,
    count: number,
    options: { hoursAgo?: number; trigger?: 'event' | 'resend'; resendOf?: string; workspace?: string } = {},
  ): Promise<string[]> => {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, resend_of, status,
                               attempts, created_at)
       SELECT $1, ($2::uuid[])[1 + floor(random() * 3)::int], gen_random_uuid(), 'record.created',
              'http://127.0.0.1:41123/hooks', $4, $5, 'pending', 0, now() - $3 * interval '1 hour'
         FROM generate_series(1, $6::integer)
       RETURNING id`,
      [
        options.workspace ?? workspaceId,
        WEBHOOKS,
        options.hoursAgo ?? 0,
        options.trigger ?? 'event',
        options.resendOf ?? null,
        count,
      ],
    );
    return rows.map((row) => row.id);
  };

  /** One attempt, as the engine writes it: Sending, then its outcome (a retry keeps a next attempt). */
  const attempt = async (client: Client, id: string, outcome: 'delivered' | 'retry' | 'failed') => {
    await client.query(
      `UPDATE deliveries SET status = 'sending', attempts = attempts + 1, waiting_since = NULL WHERE id = $1`,
      [id],
    );
    await client.query(
      `UPDATE deliveries SET status = $2, next_attempt_at = $3, updated_at = now() WHERE id = $1`,
      [
        id,
        outcome === 'delivered' ? 'delivered' : 'failed',
        outcome === 'retry' ? new Date(Date.now() + 10_000) : null,
      ],
    );
  };

  it('equal a recount after concurrent writers, retries, resends and folds alongside', async () => {
    const writers = await Promise.all(Array.from({ length: 8 }, connect));
    let folding = true;
    let folds = 0;
    const folder = (async () => {
      while (folding) {
        folds += (await foldDeliveryCounts(db.dataSource)) > 0 ? 1 : 0;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      await Promise.all(
        writers.map(async (client, writer) => {
          for (let round = 0; round < 25; round++) {
            await client.query('BEGIN');
            const ids = await insert(client, 1 + ((writer + round) % 3), {
              hoursAgo: round % 5 === 0 ? 30 : 0,
            });
            await client.query('COMMIT');
            for (const id of ids) {
              // Retries: a delivery that fails, is retried, and ends delivered or failed.
              await attempt(client, id, 'retry');
              if (round % 4 === 0) continue; // still retrying
              await attempt(client, id, round % 3 === 0 ? 'failed' : 'delivered');
              // A resend of a failed delivery is a new delivery, attempted in its own transaction.
              if (round % 3 === 0) {
                await client.query('BEGIN');
                const [resent] = await insert(client, 1, { trigger: 'resend', resendOf: id });
                await attempt(client, resent!, 'delivered');
                await client.query('COMMIT');
              }
            }
          }
        }),
      );
      // The other workspace writes too; its counts never mix with this one's.
      await insert(writers[0]!, 7, { workspace: otherWorkspaceId });
    } finally {
      folding = false;
      await folder;
      await Promise.all(writers.map((client) => client.end()));
    }

    expect(folds).toBeGreaterThan(0);
    expect(await drift()).toEqual([]);
    expect(await drift(otherWorkspaceId)).toEqual([]);
    await foldDeliveryCounts(db.dataSource);
    expect(await drift()).toEqual([]);
    const [{ unfolded }] = await db.dataSource.query(
      `SELECT count(*)::int AS unfolded FROM delivery_count_changes`,
    );
    expect(unfolded).toBe(0);
    const states = await db.dataSource.query(
      `SELECT state, sum(n)::int AS n FROM delivery_counts WHERE workspace_id = $1 AND webhook_id = $2
        GROUP BY state HAVING sum(n) <> 0 ORDER BY state`,
      [workspaceId, ALL_WEBHOOKS],
    );
    expect(states.map((row: { state: string }) => row.state)).toEqual(['delivered', 'failed', 'retrying']);
  }, 120_000);

  it('the chart and the health read the kept counts, equal to counting the rows', async () => {
    const window = statsWindow('24h', new Date());
    const stats = await loadDeliveryStats(db.dataSource.manager, workspaceId, window, null);
    const [raw] = await db.dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE status = 'failed' AND next_attempt_at IS NULL)::int AS failed,
              count(*) FILTER (WHERE status = 'failed' AND next_attempt_at IS NOT NULL)::int AS retrying,
              count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS "inFlight"
         FROM deliveries WHERE workspace_id = $1 AND created_at >= $2`,
      [workspaceId, window.from],
    );
    expect(stats.totals).toMatchObject(raw);
    expect(raw.delivered).toBeGreaterThan(0);
    expect(raw.failed).toBeGreaterThan(0);
    expect(raw.retrying).toBeGreaterThan(0);

    // Before and after a fold, the same health.
    await db.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, attempts)
       VALUES ($1, $2, gen_random_uuid(), 'record.created', 'http://127.0.0.1:41123/hooks', 'event', 'pending', 0)`,
      [workspaceId, WEBHOOKS[0]],
    );
    const before = await loadWebhookHealth(db.dataSource.manager, workspaceId, WEBHOOKS);
    await foldDeliveryCounts(db.dataSource);
    const after = await loadWebhookHealth(db.dataSource.manager, workspaceId, WEBHOOKS);
    expect(after).toEqual(before);
    const [week] = await db.dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE status = 'failed' AND next_attempt_at IS NULL)::int AS failed,
              count(*) FILTER (WHERE status = 'failed' AND next_attempt_at IS NOT NULL)::int AS retrying,
              count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS "inFlight"
         FROM deliveries WHERE workspace_id = $1 AND webhook_id = $2`,
      [workspaceId, WEBHOOKS[0]],
    );
    expect(after.get(WEBHOOKS[0]!)!.last7d).toMatchObject(week);
    expect(after.get(WEBHOOKS[0]!)!.last7d.inFlight).toBeGreaterThan(0);
  });

  it('a crash mid-transaction leaves no count behind', async () => {
    await foldDeliveryCounts(db.dataSource);
    const kept = () =>
      db.dataSource.query(
        `SELECT coalesce(sum(n), 0)::int AS n FROM delivery_counts WHERE workspace_id = $1 AND webhook_id = $2`,
        [workspaceId, ALL_WEBHOOKS],
      );
    const before = await kept();
    const doomed = await connect();
    doomed.on('error', () => undefined);
    await doomed.query('BEGIN');
    const ids = await insert(doomed, 5);
    await attempt(doomed, ids[0]!, 'delivered');
    // The process holding the transaction dies: PostgreSQL ends its session and rolls it back.
    const { pid } = (await doomed.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
    await db.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await doomed.end().catch(() => undefined);

    expect(await foldDeliveryCounts(db.dataSource)).toBe(0);
    expect(await kept()).toEqual(before);
    expect(await drift()).toEqual([]);
  });

  it('count Sending as Pending after migration 1764730800001, equal to a recount either way', async () => {
    const runner = db.dataSource.createQueryRunner();
    const migration = new CountSendingAsPending1764730800001();
    const inTransaction = async (step: (runner: QueryRunner) => Promise<void>) => {
      await runner.startTransaction();
      await step(runner);
      await runner.commitTransaction();
    };
    const sendingRows = async () =>
      (
        await db.dataSource.query(
          `SELECT (SELECT count(*) FROM delivery_counts WHERE state = 'sending')
                + (SELECT count(*) FROM delivery_count_changes WHERE state = 'sending') AS n`,
        )
      )[0].n as string;
    const client = await connect();
    try {
      // As before it: Sending counted apart, some of it folded, some not yet.
      await inTransaction((r) => migration.down(r));
      const sending = async (count: number) => {
        for (const id of await insert(client, count))
          await client.query(`UPDATE deliveries SET status = 'sending' WHERE id = $1`, [id]);
      };
      await sending(4);
      await foldDeliveryCounts(db.dataSource);
      await sending(3);
      expect(Number(await sendingRows())).toBeGreaterThan(0);
      expect(await drift()).toEqual([]);

      await inTransaction((r) => migration.up(r));
      expect(Number(await sendingRows())).toBe(0);
      expect(await drift()).toEqual([]);
      // An attempt's move from Pending to Sending appends no change; its outcome does.
      const [id] = await insert(client, 1);
      await foldDeliveryCounts(db.dataSource);
      await client.query(`UPDATE deliveries SET status = 'sending' WHERE id = $1`, [id]);
      expect(await foldDeliveryCounts(db.dataSource)).toBe(0);
      await attempt(client, id!, 'delivered');
      expect(await drift()).toEqual([]);
      await foldDeliveryCounts(db.dataSource);
      expect(await drift()).toEqual([]);
    } finally {
      await client.end();
      await runner.release();
    }
  });

  it('the migration counts an existing log while writes go on', async () => {
    const runner = db.dataSource.createQueryRunner();
    const migration = new DeliveryCounts1764666000000();
    await migration.down(runner);
    // The log as it was before the counts: 150,000 deliveries over 30 days, 0.5 % failed.
    await seedInBulk(db, (run) =>
      run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, attempts, created_at)
       SELECT $1, ($2::uuid[])[i % 3 + 1], gen_random_uuid(), 'record.created', 'http://127.0.0.1:41123/hooks',
              'event', CASE WHEN random() < 0.005 THEN 'failed' ELSE 'delivered' END, 1,
              now() - random() * interval '30 days'
         FROM generate_series(1, 150000) AS i`,
        [workspaceId, WEBHOOKS],
      ),
    );
    const writer = await connect();
    const writes: { sent: number; answered: number }[] = [];
    let migrating = true;
    const writing = (async () => {
      while (migrating) {
        const sent = performance.now();
        const [id] = await insert(writer, 1);
        await attempt(writer, id!, writes.length % 2 ? 'delivered' : 'retry');
        writes.push({ sent, answered: performance.now() });
      }
    })();
    let started = 0;
    let finished = 0;
    try {
      while (writes.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
      started = performance.now();
      await migration.up(runner);
      finished = performance.now();
      // A few more writes after it, counted by the triggers alone.
      const more = writes.length + 20;
      while (writes.length < more) await new Promise((resolve) => setTimeout(resolve, 10));
    } finally {
      migrating = false;
      await writing;
      await writer.end();
      await runner.release();
    }

    const during = writes.filter((write) => write.sent >= started && write.answered <= finished);
    const slowest = Math.max(...writes.map((write) => write.answered - write.sent));
    // Writes went on through the migration; none waited for the whole count.
    expect(during.length).toBeGreaterThan(5);
    expect(slowest).toBeLessThan(Math.max(finished - started, 1) / 2);
    expect(await drift()).toEqual([]);
    await foldDeliveryCounts(db.dataSource);
    expect(await drift()).toEqual([]);
    expect(await drift(otherWorkspaceId)).toEqual([]);
  }, 180_000);
});
