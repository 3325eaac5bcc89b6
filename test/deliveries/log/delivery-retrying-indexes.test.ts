import {
  DeliveryRetryingIndexes1764676800000,
  DELIVERY_RETRYING_INDEXES,
} from '../../../src/app/db/migrations/2025-12-02-from-noon/1764676800000-delivery-retrying-indexes';
import type { DeliveriesService, DeliveryListQuery } from '../../../src/deliveries/log/deliveries.service';
import type { Actor } from '../../../src/identity/actor';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import {
  deliveryIndexes,
  everyPage,
  filterPlans,
  fromIndexes,
  logService,
  migrateOne,
  newActor,
  seedInBulk,
} from '../../helpers/delivery-log';

const SEEDED = 200_000;
/** About one in FAILED_EVERY deliveries failed for good; four in RETRYING_EVERY are retrying (one per webhook). */
const FAILED_EVERY = 50;
const RETRYING_EVERY = 2_000;
const RETRYING = (SEEDED / RETRYING_EVERY) * 4;

/**
 * Issue 27, item 1 on a large log (issue 26): the `state` filter splits the spec's Failed into
 * `retrying` (a next attempt is scheduled) and `failed` (for good); `status=failed` keeps both. The
 * same rows before and after the partial retrying indexes are built (CONCURRENTLY), and then
 * `state=retrying` is read from them for its page and its count — not by walking every Failed
 * delivery of the workspace — and `state=failed` from the status index. DELIVERY_PLANS=<file>
 * writes the EXPLAIN ANALYZE of each to that file.
 */
describe('delivery retrying indexes', () => {
  let db: TestDatabase;
  let actor: Actor;
  let service: DeliveriesService;
  let webhookId: string;

  const migrate = (direction: 'up' | 'down') =>
    migrateOne(db, new DeliveryRetryingIndexes1764676800000(), direction);

  beforeAll(async () => {
    db = await createTestDatabase(4);
    actor = await newActor(db, 'retrying@example.com', 'Retry Co');
    service = logService(db);
    await migrate('down');
    // SEEDED deliveries over 30 days and four webhooks: 2 % failed for good over the whole month,
    // 0.2 % retrying, all of the last two hours (a retry schedule lasts about 1.5 h).
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                               status, status_code, attempts, next_attempt_at, workflow_started_at, created_at, updated_at)
       SELECT $1, md5('webhook' || (i % 4))::uuid, gen_random_uuid(), 'record.updated',
              'http://127.0.0.1:4' || (i % 4 + 1) || '123/hooks/crm', NULL, 'event', 1,
              CASE WHEN retrying OR failed THEN 'failed' ELSE 'delivered' END,
              CASE WHEN retrying OR failed THEN 503 ELSE 204 END, CASE WHEN failed THEN 10 ELSE 1 END,
              CASE WHEN retrying THEN at + interval '10 minutes' END, at, at, at
         FROM generate_series(1, $2::integer) AS i,
              LATERAL (SELECT i % $4 < 4 AS retrying, i % $4 >= 4 AND i % $3 = 7 AS failed) AS kind,
              LATERAL (SELECT CASE WHEN retrying THEN now() - random() * interval '2 hours'
                                   ELSE now() - random() * interval '30 days' END + i * interval '0 s' AS at) AS shape`,
        [actor.workspace.id, SEEDED, FAILED_EVERY, RETRYING_EVERY],
      );
    });
    [{ webhookId }] = await db.dataSource.query(`SELECT md5('webhook1')::uuid AS "webhookId"`);
    await db.dataSource.query(`ANALYZE deliveries`);
  }, 300_000);

  afterAll(async () => {
    await db.drop();
  });

  const everything = (query: Omit<DeliveryListQuery, 'limit'>, who = actor) =>
    everyPage(service, who, query, 20);

  const filters = (): [string, Omit<DeliveryListQuery, 'limit'>][] => [
    ['state=retrying', { state: 'retrying' }],
    ['state=retrying of one webhook', { state: 'retrying', webhookId }],
    ['state=failed', { state: 'failed' }],
    ['status=failed', { status: 'failed' }],
    ['state=retrying in a date window', { state: 'retrying', createdFrom: '2000-01-01' }],
  ];
  const before = new Map<string, { ids: string[]; total: unknown }>();

  it('splits Failed into retrying and failed for good; status=failed keeps both', async () => {
    for (const [name, query] of filters()) before.set(name, await everything(query));
    const retrying = before.get('state=retrying')!.ids;
    const forGood = before.get('state=failed')!.ids;
    expect(retrying).toHaveLength(RETRYING);
    expect(before.get('state=retrying')!.total).toEqual({ count: RETRYING, capped: false });
    expect(forGood.length).toBeGreaterThan(SEEDED / FAILED_EVERY - 10);
    expect(new Set(before.get('status=failed')!.ids)).toEqual(new Set([...retrying, ...forGood]));
    expect(before.get('state=retrying of one webhook')!.ids).toHaveLength(RETRYING / 4);
    const page = await service.list(actor, { state: 'retrying', limit: 3 });
    expect(page.data.map((delivery) => [delivery.status, delivery.state])).toEqual([
      ['failed', 'retrying'],
      ['failed', 'retrying'],
      ['failed', 'retrying'],
    ]);
    expect(page.data.every((delivery) => delivery.nextAttemptAt !== null)).toBe(true);
  });

  it('builds the indexes concurrently, valid, and answers the same rows in the same order from them', async () => {
    await migrate('up');
    const names = DELIVERY_RETRYING_INDEXES.map(([name]) => name).sort();
    expect(await deliveryIndexes(db, names)).toEqual(names.map((name) => ({ name, valid: true })));
    await db.dataSource.query(`ANALYZE deliveries`);
    for (const [name, query] of filters()) {
      expect({ name, ...(await everything(query)) }).toEqual({ name, ...before.get(name)! });
    }
  }, 180_000);

  it('reads each state from its index (EXPLAIN), for the page and for its count', async () => {
    const verdicts = await filterPlans(db, actor, [
      ['state=retrying', { state: 'retrying' }, 'deliveries_workspace_retrying_idx'],
      ['state=retrying of one webhook', { state: 'retrying', webhookId }, 'deliveries_webhook_retrying_idx'],
      // Either status index: in a database of one workspace the planner may skip-scan the webhooks'.
      ['state=failed', { state: 'failed' }, '_status_idx'],
      ['state=failed of one webhook', { state: 'failed', webhookId }, '_status_idx'],
    ]);
    expect(verdicts).toEqual(fromIndexes(verdicts));
  });

  it('finds nothing of another workspace', async () => {
    const attacker = await newActor(db, 'attacker@example.com', 'Other Co');
    const empty = { ids: [], total: { count: 0, capped: false } };
    expect(await everything({ state: 'retrying' }, attacker)).toEqual(empty);
    expect(await everything({ state: 'failed' }, attacker)).toEqual(empty);
  });

  it('drops the indexes on down()', async () => {
    await migrate('down');
    expect(
      await deliveryIndexes(
        db,
        DELIVERY_RETRYING_INDEXES.map(([name]) => name),
      ),
    ).toEqual([]);
    await migrate('up');
  });
});
