import {
  DeliveryFindIndexes1764673200000,
  DELIVERY_FIND_INDEXES,
} from '../../../src/app/db/migrations/2025-12-01-to-02-morning/1764673200000-delivery-find-indexes';
import {
  DELIVERY_RECORD_STATISTICS,
  DeliveryRecordStatistics1764734400000,
} from '../../../src/app/db/migrations/2025-12-03/1764734400000-delivery-record-statistics';
import type { DeliveriesService, DeliveryListQuery } from '../../../src/deliveries/log/deliveries.service';
import { RECORD_ID_SQL } from '../../../src/deliveries/store/delivery-log.repository';
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
/** Each record has about SEEDED / RECORDS deliveries; each event goes to two webhooks. */
const RECORDS = 20_000;

/**
 * Issue 27, item 3 on a large log (issue 26): `eventId`, `recordId` and `idPrefix` answer the same
 * rows before and after their indexes are built (CREATE INDEX CONCURRENTLY, outside a transaction),
 * and each is then read from an index that starts with the workspace, or from the primary key,
 * never by a scan of the log. DELIVERY_PLANS=<file> writes the EXPLAIN ANALYZE of each to that file.
 */
describe('delivery find indexes', () => {
  let db: TestDatabase;
  let actor: Actor;
  let service: DeliveriesService;
  let known: { id: string; eventId: string; recordId: string; webhookId: string };

  const migrate = (direction: 'up' | 'down') =>
    migrateOne(db, new DeliveryFindIndexes1764673200000(), direction);

  beforeAll(async () => {
    db = await createTestDatabase(4);
    actor = await newActor(db, 'finder@example.com', 'Find Co');
    service = logService(db);
    await migrate('down');
    // SEEDED deliveries over 30 days and four webhooks: each event to two webhooks, each record's
    // events spread over the month, one in ten a messaging event, 0.5 % failed.
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                               status, status_code, attempts, workflow_started_at, created_at, updated_at)
       SELECT $1, md5('webhook' || (i % 4))::uuid, md5('event' || (i / 2))::uuid,
              CASE WHEN messaging THEN 'messaging.message.received' ELSE 'record.updated' END,
              'http://127.0.0.1:4' || (i % 4 + 1) || '123/hooks/crm',
              CASE WHEN messaging THEN jsonb_build_object('entityId', 'msg-' || i)
                   ELSE jsonb_build_object('typeId', md5('type')::uuid, 'recordId', md5('record' || (i / 2 % $3))::uuid)
              END,
              'event', 1, CASE WHEN failed THEN 'failed' ELSE 'delivered' END,
              CASE WHEN failed THEN 503 ELSE 204 END, 1, at, at, at
         FROM generate_series(1, $2::integer) AS i,
              LATERAL (SELECT now() - random() * interval '30 days' + i * interval '0 s' AS at,
                              random() < 0.005 + i * 0 AS failed, (i / 2) % 10 = 0 AS messaging) AS shape`,
        [actor.workspace.id, SEEDED, RECORDS],
      );
    });
    [known] = await db.dataSource.query(
      `SELECT id, event_id AS "eventId", element ->> 'recordId' AS "recordId", webhook_id AS "webhookId"
         FROM deliveries WHERE element ? 'recordId' ORDER BY created_at DESC OFFSET 1000 LIMIT 1`,
    );
    await db.dataSource.query(`ANALYZE deliveries`);
  }, 300_000);

  afterAll(async () => {
    await db.drop();
  });

  /** Every page of the log under the filters, in pages of 5, and the total of the first page. */
  const everything = (query: Omit<DeliveryListQuery, 'limit'>, who = actor) =>
    everyPage(service, who, query, 5);

  const filters = (): [string, Omit<DeliveryListQuery, 'limit'>][] => [
    ['eventId', { eventId: known.eventId }],
    ['recordId', { recordId: known.recordId }],
    ['idPrefix (the short id)', { idPrefix: known.id.slice(0, 8) }],
    ['recordId and status=failed', { recordId: known.recordId, status: 'failed' }],
    ['eventId of one webhook', { eventId: known.eventId, webhookId: known.webhookId }],
    [
      'recordId of one webhook, a date window',
      { recordId: known.recordId, webhookId: known.webhookId, createdFrom: '2000-01-01' },
    ],
  ];
  const before = new Map<string, { ids: string[]; total: unknown }>();

  it('reads the filtered log before the migration', async () => {
    for (const [name, query] of filters()) before.set(name, await everything(query));
    expect(before.get('eventId')!.ids).toHaveLength(2);
    expect(before.get('eventId')!.ids).toContain(known.id);
    expect(before.get('idPrefix (the short id)')!.ids).toEqual([known.id]);
    const [{ ofRecord }] = await db.dataSource.query(
      `SELECT count(*)::int AS "ofRecord" FROM deliveries WHERE element ->> 'recordId' = $1`,
      [known.recordId],
    );
    expect(ofRecord).toBeGreaterThan(5);
    expect(before.get('recordId')!.ids).toHaveLength(ofRecord);
    expect(before.get('eventId of one webhook')!.ids).toEqual([known.id]);
  });

  it('builds the indexes concurrently, valid, and answers the same rows in the same order from them', async () => {
    await migrate('up');
    const names = DELIVERY_FIND_INDEXES.map(([name]) => name).sort();
    expect(await deliveryIndexes(db, names)).toEqual(names.map((name) => ({ name, valid: true })));
    await db.dataSource.query(`ANALYZE deliveries`);
    for (const [name, query] of filters()) {
      expect({ name, ...(await everything(query)) }).toEqual({ name, ...before.get(name)! });
    }
  }, 180_000);

  it('reads each filter from its index (EXPLAIN), for the page and for its count', async () => {
    const expected: [string, Omit<DeliveryListQuery, 'limit'>, string][] = [
      ['eventId', { eventId: known.eventId }, 'deliveries_workspace_event_idx'],
      ['recordId', { recordId: known.recordId }, 'deliveries_workspace_record_idx'],
      ['idPrefix', { idPrefix: known.id.slice(0, 8) }, 'deliveries_pkey'],
      [
        'recordId + status',
        { recordId: known.recordId, status: 'failed' },
        'deliveries_workspace_record_idx',
      ],
    ];
    const verdicts = await filterPlans(db, actor, expected);
    expect(verdicts).toEqual(fromIndexes(verdicts));
  });

  it("estimates a record's deliveries from the record statistics, which the partial index cannot give", async () => {
    // The planner's guess for one record's deliveries; a record here has about 10.
    const estimate = async () => {
      await db.dataSource.query(`ANALYZE deliveries`);
      const [explained] = (await db.dataSource.query(
        `EXPLAIN (FORMAT JSON) SELECT 1 FROM deliveries d
          WHERE d.workspace_id = $1 AND ${RECORD_ID_SQL} = $2`,
        [actor.workspace.id, known.recordId],
      )) as [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }];
      return explained['QUERY PLAN'][0].Plan['Plan Rows'];
    };
    expect(await estimate()).toBeLessThan(100);
    const [{ statistics }] = await db.dataSource.query(
      `SELECT count(*)::int AS statistics FROM pg_stats_ext_exprs WHERE statistics_name = $1`,
      [DELIVERY_RECORD_STATISTICS],
    );
    expect(statistics).toBe(1);
    // Without them PostgreSQL's default for an unknown equality, 0.5 % of the log: 1,000 here.
    const statisticsMigration = new DeliveryRecordStatistics1764734400000();
    await migrateOne(db, statisticsMigration, 'down');
    expect(await estimate()).toBeGreaterThanOrEqual(SEEDED * 0.004);
    await migrateOne(db, statisticsMigration, 'up');
    expect(await estimate()).toBeLessThan(100);
  });

  it('finds nothing of another workspace: its event, record and short id answer as ids nobody used', async () => {
    const attacker = await newActor(db, 'attacker@example.com', 'Other Co');
    const nobody = {
      eventId: '5b0f7a4e-0d7c-4c38-9a55-6f5c8f2e9d10',
      recordId: '0d3c1e2f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    };
    const empty = { ids: [], total: { count: 0, capped: false } };
    expect(await everything({ eventId: nobody.eventId }, attacker)).toEqual(empty);
    expect(await everything({ eventId: known.eventId }, attacker)).toEqual(empty);
    expect(await everything({ recordId: nobody.recordId }, attacker)).toEqual(empty);
    expect(await everything({ recordId: known.recordId }, attacker)).toEqual(empty);
    expect(await everything({ idPrefix: known.id.slice(0, 8) }, attacker)).toEqual(empty);
    expect(await everything({ idPrefix: known.id }, attacker)).toEqual(empty);
  });

  it('drops the indexes on down()', async () => {
    await migrate('down');
    const [{ left }] = await db.dataSource.query(
      `SELECT count(*)::int AS left FROM pg_class WHERE relname = ANY ($1)`,
      [DELIVERY_FIND_INDEXES.map(([name]) => name)],
    );
    expect(left).toBe(0);
    await migrate('up');
  });
});
