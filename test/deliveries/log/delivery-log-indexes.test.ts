import { randomUUID } from 'node:crypto';
import {
  DeliveryLogIndexes1764662400000,
  DELIVERY_LOG_INDEXES,
} from '../../../src/app/db/migrations/2025-12-01-to-02-morning/1764662400000-delivery-log-indexes';
import type { DeliveriesService, DeliveryListQuery } from '../../../src/deliveries/log/deliveries.service';
import { deliveryLogQuery } from '../../../src/deliveries/store/delivery-log.repository';
import { searchMatches } from '../../../src/deliveries/store/delivery-search';
import type { Actor } from '../../../src/identity/actor';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { writesDuring } from '../../helpers/writes-during';
import { everyPage, logService, migrateOne, newActor, seedInBulk } from '../../helpers/delivery-log';

const SEEDED = 200_000;
const WEBHOOKS = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const RARE_URL = 'https://rare-receiver.example.net/hooks/crm';

/**
 * Issue 26: the delivery log's indexes are built on a live table (CREATE INDEX CONCURRENTLY), so a
 * migration on a large deliveries table lets the service go on writing deliveries; and the queries
 * the indexes serve answer the same rows as the scans they replace.
 */
describe('delivery log indexes', () => {
  let db: TestDatabase;
  let actor: Actor;
  let service: DeliveriesService;

  beforeAll(async () => {
    db = await createTestDatabase(4);
    actor = await newActor(db, 'ines@example.com', 'Index Co');
    const workspace = actor.workspace;
    service = logService(db);
    // The table as it was before this migration: the log grown to SEEDED deliveries, shaped like the
    // ones the service writes (spread over 30 days across four webhooks, 0.5 % failed), with three
    // old deliveries to a URL nothing else uses.
    await migrate('down');
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                               status, status_code, response_message, attempts, workflow_started_at, created_at,
                               updated_at)
       SELECT $1, ($2::uuid[])[i % 4 + 1], gen_random_uuid(), (ARRAY['record.created', 'record.updated'])[i % 2 + 1],
              'http://127.0.0.1:4' || (i % 4 + 1) || '123/hooks/crm',
              jsonb_build_object('typeId', gen_random_uuid(), 'recordId', gen_random_uuid()), 'event', 1,
              CASE WHEN failed THEN 'failed' ELSE 'delivered' END, CASE WHEN failed THEN 503 ELSE 204 END,
              CASE WHEN failed THEN 'Service Unavailable' ELSE 'No Content' END, CASE WHEN failed THEN 10 ELSE 1 END,
              at, at, at
         FROM generate_series(1, $3::integer) AS i,
              LATERAL (SELECT now() - random() * interval '30 days' + i * interval '0 s' AS at,
                              random() < 0.005 + i * 0 AS failed) AS shape`,
        [workspace.id, WEBHOOKS, SEEDED],
      );
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
                               attempts, created_at)
       SELECT $1, $2, gen_random_uuid(), 'record.created', $3, 'event', 'delivered', 204, 1,
              now() - interval '25 days' - i * interval '1 hour'
         FROM generate_series(1, 3) AS i`,
        [workspace.id, WEBHOOKS[0], RARE_URL],
      );
    });
    await db.dataSource.query(`ANALYZE deliveries`);
  }, 180_000);

  afterAll(async () => {
    await db.drop();
  });

  const migrate = (direction: 'up' | 'down') =>
    migrateOne(db, new DeliveryLogIndexes1764662400000(), direction);

  /** Every page of the log under the filters, and the total of the first page. */
  const everything = (query: Omit<DeliveryListQuery, 'limit'>) => everyPage(service, actor, query);

  const filters: [string, Omit<DeliveryListQuery, 'limit'>][] = [
    ['a rare searchTerm', { searchTerm: 'rare-receiver.example' }],
    ['a searchTerm matching nothing', { searchTerm: 'nowhere.example' }],
    ['status=failed', { status: 'failed' }],
    ['status=failed of one webhook', { status: 'failed', webhookId: WEBHOOKS[1] }],
    ['a rare exact url', { url: RARE_URL }],
  ];
  const before = new Map<string, { ids: string[]; total: unknown }>();

  it('reads the filtered log before the migration (the scans it replaces)', async () => {
    for (const [name, query] of filters) before.set(name, await everything(query));
    expect(before.get('a rare searchTerm')!.ids).toHaveLength(3);
    expect(before.get('a rare exact url')!.ids).toEqual(before.get('a rare searchTerm')!.ids);
    expect(before.get('a searchTerm matching nothing')!.ids).toEqual([]);
    const [{ failed }] = await db.dataSource.query(
      `SELECT count(*)::int AS failed FROM deliveries WHERE status = 'failed'`,
    );
    expect(failed).toBeGreaterThan(500);
    expect(before.get('status=failed')!.ids).toHaveLength(failed);
  });

  it('builds the indexes while another connection goes on inserting deliveries, and they end valid', async () => {
    const writes = await writesDuring(
      db.url,
      (writer) =>
        writer.query(
          `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, status,
                                   attempts, created_at)
           VALUES ($1, $2, gen_random_uuid(), 'record.created', 'http://127.0.0.1:41123/hooks/crm',
                   jsonb_build_object('recordId', gen_random_uuid()), 'event', 'pending', 0,
                   now() - interval '40 days')`,
          [actor.workspace.id, WEBHOOKS[0]],
        ),
      () => migrate('up'),
    );

    // Inserts were committed all through the build, each answered in a small part of its duration.
    expect(writes.took).toBeGreaterThan(500);
    expect(writes.during).toBeGreaterThan(100);
    expect(writes.slowest).toBeLessThan(writes.took / 5);
    const [{ written }] = await db.dataSource.query(
      `SELECT count(*)::int AS written FROM deliveries WHERE created_at < now() - interval '39 days'`,
    );
    expect(written).toBe(writes.writes);

    const indexes = (await db.dataSource.query(
      `SELECT c.relname AS name, i.indisvalid AS valid, i.indisready AS ready
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = 'deliveries'::regclass AND c.relname = ANY ($1)`,
      [DELIVERY_LOG_INDEXES.map(([name]) => name)],
    )) as { name: string; valid: boolean; ready: boolean }[];
    expect(indexes.map((index) => index.name).sort()).toEqual(
      DELIVERY_LOG_INDEXES.map(([name]) => name).sort(),
    );
    expect(indexes.every((index) => index.valid && index.ready)).toBe(true);
  }, 180_000);

  it('answers the same rows, in the same order, with the same total, from the indexes', async () => {
    await db.dataSource.query(`ANALYZE deliveries`);
    for (const [name, query] of filters) {
      const after = await everything(query);
      expect({ name, ...after }).toEqual({ name, ...before.get(name)! });
    }
    // The rare search is now read from an index, not by a scan of the log: since issue 38 the
    // workspace's URL it matches is listed first and read from an index that leads with the URL.
    const searchTerm = 'rare-receiver.example';
    const search = await searchMatches(db.dataSource.manager, actor.workspace.id, searchTerm);
    expect(search).toEqual({ urls: [RARE_URL], events: [] });
    const [sql, parameters] = deliveryLogQuery(
      db.dataSource.manager,
      actor.workspace.id,
      { searchTerm, limit: 50 },
      search,
    ).getQueryAndParameters();
    const plan = (await db.dataSource.query(`EXPLAIN ${sql}`, parameters)) as { 'QUERY PLAN': string }[];
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toMatch(/deliveries_workspace_url(_time)?_idx/);
    expect(text).not.toContain('Seq Scan');
  });

  it('drops the indexes on down() and builds them again on up()', async () => {
    await migrate('down');
    const [{ left }] = await db.dataSource.query(
      `SELECT count(*)::int AS left FROM pg_class WHERE relname = ANY ($1)`,
      [DELIVERY_LOG_INDEXES.map(([name]) => name)],
    );
    expect(left).toBe(0);
    await migrate('up');
    const [{ back }] = await db.dataSource.query(
      `SELECT count(*)::int AS back FROM pg_class WHERE relname = ANY ($1)`,
      [DELIVERY_LOG_INDEXES.map(([name]) => name)],
    );
    expect(back).toBe(DELIVERY_LOG_INDEXES.length);
  }, 120_000);
});
