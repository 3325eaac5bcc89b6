import { DELIVERY_LEGACY_EVENT_INDEXES } from '../../../src/app/db/migrations/2025-12-02-from-noon/1764684000000-delivery-legacy-event-index';
import { LEGACY_EVENTS_SQL } from '../../../src/deliveries/store/legacy-events.repository';
import type { DeliveriesService } from '../../../src/deliveries/log/deliveries.service';
import type { Actor } from '../../../src/identity/actor';
import { RETIRED_EVENTS } from '../../../src/shared/events/event-catalog';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { deliveryIndexes, logService, newActor, seedInBulk } from '../../helpers/delivery-log';
import { importLegacyWebhook } from '../../helpers/legacy-import';

const SEEDED = 50_000;

/**
 * Issue 27, item 5: the Deliveries page's event filter offers a retired (legacy) event only where
 * the workspace has it, in a delivery (imported ones outlive their webhook) or a webhook. Another
 * workspace's legacy events never show, and the answer is read from the partial index, not from
 * the log: probes of `deliveries_workspace_legacy_event_idx`, no scan of the workspace's deliveries.
 */
describe('legacy events of a workspace', () => {
  let db: TestDatabase;
  let service: DeliveriesService;
  let a: Actor;
  let b: Actor;

  const legacyOf = async (actor: Actor) => (await service.legacyEvents(actor)).events;

  beforeAll(async () => {
    db = await createTestDatabase(3);
    service = logService(db);
    a = await newActor(db, 'legacy-a@example.com', 'Old Systems');
    b = await newActor(db, 'legacy-b@example.com', 'New Systems');
    // B's log is large (SEEDED deliveries) and holds no retired event: nothing of it should be read for the answer.
    await seedInBulk(db, async (run) => {
      await run(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, attempts, created_at)
       SELECT $1, gen_random_uuid(), gen_random_uuid(), 'record.updated', 'https://b.example.com/in', 'event',
              'delivered', 1, now() - i * interval '1 minute'
         FROM generate_series(1, $2::integer) AS i`,
        [b.workspace.id, SEEDED],
      );
    });
    await db.dataSource.query(`ANALYZE deliveries`);
  }, 120_000);

  afterAll(async () => {
    await db.drop();
  });

  it('a workspace without retired events has none', async () => {
    await expect(legacyOf(a)).resolves.toEqual([]);
    await expect(legacyOf(b)).resolves.toEqual([]);
  });

  it('lists those of its imported webhooks and deliveries, in catalog order, and not the other workspace’s', async () => {
    await importLegacyWebhook(db.dataSource, a.workspace.id, {
      url: 'https://old.example.com/hook',
      events: ['task.updated', 'record.created'],
      deliveredEvents: ['deal.created', 'record.created'],
    });
    await expect(legacyOf(a)).resolves.toEqual(['deal.created', 'task.updated']);
    await expect(legacyOf(b)).resolves.toEqual([]);
  });

  it('keeps a delivery’s retired event after its webhook is gone; drops a webhook’s once it is gone', async () => {
    await db.dataSource.query(`DELETE FROM webhooks WHERE workspace_id = $1`, [a.workspace.id]);
    await expect(legacyOf(a)).resolves.toEqual(['deal.created']);
  });

  it('is read from the partial index, whatever the size of the log', async () => {
    await expect(deliveryIndexes(db, [DELIVERY_LEGACY_EVENT_INDEXES[0]![0]])).resolves.toEqual([
      { name: 'deliveries_workspace_legacy_event_idx', valid: true },
    ]);
    const plan = (
      (await db.dataSource.query(`EXPLAIN (ANALYZE, COSTS OFF) ${LEGACY_EVENTS_SQL}`, [
        b.workspace.id,
        RETIRED_EVENTS,
      ])) as { 'QUERY PLAN': string }[]
    )
      .map((line) => line['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('deliveries_workspace_legacy_event_idx');
    expect(plan).not.toMatch(/Seq Scan on deliveries|deliveries_workspace_idx/);
  });
});
