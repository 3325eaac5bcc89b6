import {
  DeliveryFilterIndexes1764720000000,
  DELIVERY_FILTER_INDEXES,
  REPLACED_INDEXES,
} from '../../../src/app/db/migrations/2025-12-03/1764720000000-delivery-filter-indexes';
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

const SEEDED = 100_000;
const WEBHOOKS = 5;
const ONE_PERCENT = 'messaging.chat.updated';
const RARE = 'messaging.calendar_event.changed';

/**
 * Issue 38: every filter family of the delivery log, alone and combined, reads its page and its
 * capped count from an index that leads with what it fixes (the migration 1764720000000, built
 * CONCURRENTLY), and answers the same rows as before it. The log is seeded as a real one is shaped
 * (five webhooks in turn, 55 % record.created, 40 % record.updated, messaging events at 1 % and
 * rarer, 1.5 % failed, created over 30 days in creation order) and ANALYZEd, so the planner chooses
 * as it does at millions (checked at 1 M: docs/deliveries.md, "Which index answers which filter").
 * DELIVERY_PLANS=<file> writes the EXPLAIN ANALYZE of each to that file.
 */
describe('delivery filter indexes', () => {
  let db: TestDatabase;
  let actor: Actor;
  let service: DeliveriesService;
  let webhook: { id: string; url: string; otherUrl: string };

  const migrate = (direction: 'up' | 'down') =>
    migrateOne(db, new DeliveryFilterIndexes1764720000000(), direction);

  beforeAll(async () => {
    db = await createTestDatabase(4);
    actor = await newActor(db, 'filters@example.com', 'Filter Co');
    service = logService(db);
    await migrate('down');
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, status,
                               status_code, attempts, workflow_started_at, created_at, updated_at)
       SELECT $1, md5('webhook' || i % $3)::uuid, gen_random_uuid(),
              CASE WHEN draw < 0.55 THEN 'record.created' WHEN draw < 0.95 THEN 'record.updated'
                   WHEN draw < 0.96 THEN $4 WHEN draw < 0.9999 THEN 'messaging.message.received' ELSE $5 END,
              'http://127.0.0.1:4100/hooks/crm/' || i % $3, NULL, 'event',
              CASE WHEN failed THEN 'failed' ELSE 'delivered' END, CASE WHEN failed THEN 503 ELSE 204 END, 1,
              at, at, at
         FROM generate_series(1, $2::integer) AS i,
              LATERAL (SELECT now() - interval '30 days' * (1 - i::float8 / $2) AS at, random() + i * 0 AS draw,
                              random() + i * 0 < 0.015 AS failed) AS shape`,
        [actor.workspace.id, SEEDED, WEBHOOKS, ONE_PERCENT, RARE],
      );
    });
    [webhook] = await db.dataSource.query(
      `SELECT md5('webhook1')::uuid AS id, 'http://127.0.0.1:4100/hooks/crm/1' AS url,
              'http://127.0.0.1:4100/hooks/crm/2' AS "otherUrl"`,
    );
  }, 300_000);

  afterAll(async () => {
    await db.drop();
  });

  const everything = (query: Omit<DeliveryListQuery, 'limit'>, who = actor) =>
    everyPage(service, who, query, 500);

  const window = { createdFrom: new Date(Date.now() - 15 * 86_400_000).toISOString() };
  const filters = (): [string, Omit<DeliveryListQuery, 'limit'>][] => [
    ['event (1 %)', { event: ONE_PERCENT }],
    ['a rare event', { event: RARE }],
    ['event and status', { event: ONE_PERCENT, status: 'failed' }],
    ['event and a window', { event: ONE_PERCENT, ...window }],
    ['webhook and event', { webhookId: webhook.id, event: ONE_PERCENT }],
    ['webhook, event and status', { webhookId: webhook.id, event: ONE_PERCENT, status: 'failed' }],
    ['webhook, url and event', { webhookId: webhook.id, url: webhook.url, event: ONE_PERCENT }],
    ['webhook and status', { webhookId: webhook.id, status: 'failed' }],
    ['state failed of one webhook', { webhookId: webhook.id, state: 'failed' }],
    ['url and status', { url: webhook.url, status: 'failed' }],
    ['webhook and another webhook’s url', { webhookId: webhook.id, url: webhook.otherUrl }],
  ];
  const before = new Map<string, { ids: string[]; total: unknown }>();

  it('builds the indexes concurrently in place of the two they replace, and answers the same rows', async () => {
    await db.dataSource.query(`ANALYZE deliveries`);
    for (const [name, query] of filters()) before.set(name, await everything(query));
    expect(before.get('event (1 %)')!.ids.length).toBeGreaterThan(SEEDED / 200);
    expect(before.get('webhook and another webhook’s url')).toEqual({
      ids: [],
      total: { count: 0, capped: false },
    });

    await migrate('up');
    const names = DELIVERY_FILTER_INDEXES.map(([name]) => name).sort();
    expect(await deliveryIndexes(db, names)).toEqual(names.map((name) => ({ name, valid: true })));
    expect(
      await deliveryIndexes(
        db,
        REPLACED_INDEXES.map(([name]) => name),
      ),
    ).toEqual([]);
    await db.dataSource.query(`VACUUM ANALYZE deliveries`);
    for (const [name, query] of filters()) {
      expect({ name, ...(await everything(query)) }).toEqual({ name, ...before.get(name)! });
    }
  }, 180_000);

  it('reads each filter family’s page and count from the index that leads with it (EXPLAIN)', async () => {
    const verdicts = await filterPlans(db, actor, [
      ['event', { event: ONE_PERCENT }, 'deliveries_workspace_event_time_idx'],
      ['a rare event', { event: RARE }, 'deliveries_workspace_event_time_idx'],
      ['event and status', { event: ONE_PERCENT, status: 'failed' }, 'deliveries_workspace_event_time_idx'],
      ['event and a window', { event: ONE_PERCENT, ...window }, 'deliveries_workspace_event_time_idx'],
      [
        'webhook and event',
        { webhookId: webhook.id, event: ONE_PERCENT },
        'deliveries_webhook_event_time_idx',
      ],
      [
        'webhook, event and status',
        { webhookId: webhook.id, event: ONE_PERCENT, status: 'failed' },
        'deliveries_webhook_event_time_idx',
      ],
      // Its count may also skip-scan (workspace, webhook, url) over the five webhooks: as few pages.
      ['url', { url: webhook.url }, /deliveries_(workspace_url_time|webhook_url)_idx/],
      [
        'webhook and status',
        { webhookId: webhook.id, status: 'failed' },
        'deliveries_workspace_webhook_status_idx',
      ],
    ]);
    expect(verdicts).toEqual(fromIndexes(verdicts));
  });

  it('counts a webhook with another webhook’s URL from (workspace, webhook, url) and reads no page', async () => {
    const [count] = await filterPlans(db, actor, [
      [
        'webhook and another webhook’s url',
        { webhookId: webhook.id, url: webhook.otherUrl },
        'deliveries_webhook_url_idx',
      ],
    ]).then((verdicts) => verdicts.filter((verdict) => verdict.what === 'count'));
    expect(count).toEqual({ ...count, usesIndex: true, seqScan: false });
    const page = await service.list(actor, { webhookId: webhook.id, url: webhook.otherUrl, limit: 50 });
    expect(page).toEqual({ data: [], next: null, total: { count: 0, capped: false } });
  });

  it('matches a searchTerm exactly as ILIKE on the URL and the event name did, from the indexes', async () => {
    const ilike = async (term: string, extra = '') =>
      (
        (await db.dataSource.query(
          `SELECT id FROM deliveries WHERE workspace_id = $1 ${extra}
              AND (url ILIKE '%' || $2 || '%' OR event ILIKE '%' || $2 || '%') ORDER BY created_at DESC, id DESC`,
          [actor.workspace.id, term.replace(/[\\%_]/g, '\\$&')],
        )) as { id: string }[]
      ).map((row) => row.id);
    // Without the event trigram index (dropped by 1764756000000-drop-event-trigram-index): an event
    // name is searched through the list of the workspace's event names, never by trigrams.
    expect(await deliveryIndexes(db, ['deliveries_event_trgm_idx'])).toEqual([]);
    for (const term of ['CHAT', 'crm/1', 'calendar_event', 'crm_1', '100%', 'nowhere']) {
      const { ids } = await everything({ searchTerm: term });
      expect({ term, ids }).toEqual({ term, ids: await ilike(term) });
    }
    const { ids } = await everything({ searchTerm: 'chat', webhookId: webhook.id, status: 'failed' });
    expect(ids).toEqual(await ilike('chat', `AND webhook_id = '${webhook.id}' AND status = 'failed'`));
    const verdicts = await filterPlans(db, actor, [
      ['a search matching an event', { searchTerm: 'chat' }, 'deliveries_workspace_'],
      [
        'a search matching a URL and one webhook',
        { searchTerm: 'crm/1', webhookId: webhook.id },
        'deliveries_',
      ],
    ]);
    expect(verdicts).toEqual(fromIndexes(verdicts));
  });

  it('finds nothing of another workspace', async () => {
    const stranger = await newActor(db, 'stranger@example.com', 'Other Co');
    expect(await everything({ event: ONE_PERCENT }, stranger)).toEqual({
      ids: [],
      total: { count: 0, capped: false },
    });
  });

  it('puts the replaced indexes back on down()', async () => {
    await migrate('down');
    expect(
      await deliveryIndexes(
        db,
        DELIVERY_FILTER_INDEXES.map(([name]) => name),
      ),
    ).toEqual([]);
    const replaced = REPLACED_INDEXES.map(([name]) => name).sort();
    expect(await deliveryIndexes(db, replaced)).toEqual(replaced.map((name) => ({ name, valid: true })));
    await migrate('up');
  }, 120_000);
});
