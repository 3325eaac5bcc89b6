import { randomUUID } from 'node:crypto';
import { createDataSource } from '../../../src/app/db/data-source';
import { identityHooks } from '../../../src/app/services';
import { HeldDeliveries } from '../../../src/deliveries/capacity/held-deliveries';
import type { Delivery } from '../../../src/deliveries/store';
import { signUp } from '../../../src/identity/sign-in/accounts.service';
import { createLogger } from '../../../src/logger';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { eventually } from '../../helpers/eventually';

const SETTINGS = { queuedPerWorkspace: 10, releasedPerPass: 10 };
const logger = createLogger('silent');

/**
 * A release pass claims an endpoint's held deliveries, then starts their workflows. The fault run
 * (npm run test:faults) once left a delivery Pending for good after a process was killed: a claim
 * committed before its start marks a row started that no workflow will ever deliver, and no sweep
 * looks at it again. The claim now commits with the starts.
 */
describe('releasing held deliveries, when the process dies between claim and start', () => {
  let db: TestDatabase;
  let workspaceId: string;
  let webhookId: string;

  beforeAll(async () => {
    db = await createTestDatabase(4);
    workspaceId = (
      await signUp(
        db.dataSource,
        { name: 'Ada', email: 'held@example.com', password: 'plum kettle orbit 42', workspaceName: 'Held' },
        identityHooks,
      )
    ).workspace.id;
    [{ id: webhookId }] = await db.dataSource.query(
      `INSERT INTO webhooks (workspace_id, url, events, enabled)
       VALUES ($1, 'https://hooks.example.com/in', '{record.created}', true) RETURNING id`,
      [workspaceId],
    );
  }, 60_000);

  afterAll(async () => {
    await db.drop();
  });

  const holdOne = async (): Promise<string> => {
    const [{ id }] = await db.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, waiting_since)
       VALUES ($1, $2, $3, 'record.created', 'https://hooks.example.com/in', 'event', now()) RETURNING id`,
      [workspaceId, webhookId, randomUUID()],
    );
    return id;
  };
  const row = async (id: string) =>
    (
      await db.dataSource.query(
        `SELECT workflow_started_at IS NOT NULL AS "started", waiting_since IS NOT NULL AS "held"
           FROM deliveries WHERE id = $1`,
        [id],
      )
    )[0];

  it('leaves the claimed delivery held, and the next pass starts it', async () => {
    const id = await holdOne();

    // The dying process: its own session, and a start that never answers.
    const doomed = createDataSource({ url: db.url, poolSize: 1 });
    await doomed.initialize();
    const [{ pid }] = await doomed.query('SELECT pg_backend_pid() AS pid');
    let starting = false;
    const stuck = new HeldDeliveries(
      doomed,
      {
        startDelivery: () => {
          starting = true;
          return new Promise<void>(() => undefined);
        },
      },
      logger,
      SETTINGS,
    );
    void stuck.release().catch(() => undefined);
    await eventually(() => starting, 'the release pass starts the delivery it claimed');
    // It dies: PostgreSQL ends its session.
    await db.dataSource.query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(
      async () =>
        (await db.dataSource.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length === 0,
      'the session is gone',
    );

    expect(await row(id)).toEqual({ started: false, held: true });

    const started: string[] = [];
    const next = new HeldDeliveries(
      db.dataSource,
      { startDelivery: async (delivery: Delivery) => void started.push(delivery.id) },
      logger,
      SETTINGS,
    );
    expect(await next.release()).toBe(1);
    expect(started).toEqual([id]);
    expect(await row(id)).toEqual({ started: true, held: false });
    // Its pool waits for the session that died to be given back, which never happens: not awaited.
    void doomed.destroy().catch(() => undefined);
  }, 60_000);

  it('holds again what could not be started, and commits what was', async () => {
    const [first, second] = [await holdOne(), await holdOne()];
    const refused = new HeldDeliveries(
      db.dataSource,
      {
        startDelivery: async (delivery: Delivery) => {
          if (delivery.id === second) throw new Error('Temporal is unreachable');
        },
      },
      logger,
      SETTINGS,
    );
    expect(await refused.release()).toBe(1);
    expect(await row(first)).toEqual({ started: true, held: false });
    expect(await row(second)).toEqual({ started: false, held: true });
  }, 60_000);
});
