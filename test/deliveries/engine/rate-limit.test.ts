import { RATE_LIMIT_FRESH_MS } from '../../../src/deliveries/capacity/send-throttle';
import { secondTenant, startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

const BATCH = 100;
/**
 * Deliveries per second of the throttled webhook during the resend batch: below what this busy
 * machine's stack can send (100 deliveries waiting in their workflows went out at 8.4 a second
 * under a limit of 10, with other work on the two cores; 4 to 7 a second for 100 record writes).
 */
const BATCH_LIMIT = 5;
/**
 * How long the webhook's slots are taken when the batch starts, as a bulk import sent just before
 * would have taken them. The batch makes its resends one after another, each a regular activity
 * (workflows/resend-failed.workflow.ts): about 7 a second on a quiet machine, 0.8 to 1.2 here
 * with other work sharing the two cores. Behind the taken slots, every resend is made before its
 * webhook may send again, so the batch's pace is the limit's and not the batch's own (the test
 * checks it was).
 */
const SLOTS_TAKEN_SECONDS = 150;

/** Requests per second over a run of arrivals: the intervals between the first and the last. */
const rateOf = (times: number[]) => (times.length - 1) / ((Math.max(...times) - Math.min(...times)) / 1000);

/**
 * Issue 37, item 3: a webhook's rate limit (docs/deliveries.md#rate-limit), on the real stack: the
 * Temporal dev server, PostgreSQL, the app's worker and a receiver on loopback that measures the
 * rate. Another webhook of the workspace and another workspace are not slowed meanwhile.
 */
describe('a webhook rate limit', () => {
  let stack: CapacityStack;
  let a: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    stack = await startCapacityStack({ API_CONCURRENCY_PER_WORKSPACE: '20' });
    ({ a, receiver } = stack);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
  });

  const arrivals = (path: string) => receiver.received.filter((r) => r.path === path);

  it('refuses values out of bounds with the error body, and saves nothing', async () => {
    const hook = await a.webhook(`${receiver.url}/bounds`, { rateLimit: 10 });
    for (const rateLimit of [0, -5, 2.5, 1001, '20', true, 1e9]) {
      const created = await a.api('POST', '/webhooks', {
        url: `${receiver.url}/bounds-new`,
        events: ['record.created'],
        rateLimit,
      });
      const updated = await a.api('PATCH', `/webhooks/${hook.id}`, { rateLimit });
      for (const refused of [created, updated]) {
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({ kind: 'validation', issues: [{ path: ['rateLimit'] }] });
        // A number out of the rule has its own code; another type is told apart from a missing value.
        expect(refused.body.error.issues[0].customCode).toBe(
          typeof rateLimit === 'number' ? 'webhookRateLimitInvalid' : 'invalidType',
        );
      }
    }
    const listed = (await a.api('GET', '/webhooks')).body.data;
    expect(listed.filter((webhook: any) => webhook.url === `${receiver.url}/bounds-new`)).toEqual([]);
    expect((await a.api('GET', `/webhooks/${hook.id}`)).body.rateLimit).toBe(10);
    // The bounds themselves are taken, and null removes the limit.
    for (const rateLimit of [1, 1000, null]) {
      const updated = await a.api('PATCH', `/webhooks/${hook.id}`, { rateLimit });
      expect([updated.status, updated.body.rateLimit]).toEqual([200, rateLimit]);
    }
  });

  it('spaces a bulk import and a 100-delivery resend batch at the limit, and slows no one else', async () => {
    const hook = await a.webhook(`${receiver.url}/throttled`, { events: ['record.created'] });
    expect(hook.rateLimit).toBe(null);
    // Another webhook of the same workspace, without a limit (updates only, so the import misses it).
    await a.webhook(`${receiver.url}/free`, { events: ['record.updated'] });
    const b = await secondTenant(stack, 'rate-limit-neighbour@example.com');

    // A bulk import with no limit yet: 100 writes at once, delivered as fast as the service can.
    const deals = await Promise.all(Array.from({ length: BATCH }, (_, i) => a.createDeal(`Import ${i}`)));
    await eventually(() => arrivals('/throttled').length >= BATCH, 'the import delivered', 90_000);
    const importRate = rateOf(arrivals('/throttled').map((r) => r.at));

    // The import's deliveries as Failed for good (a failing receiver would make the endpoint
    // degraded, and its deliveries wait in the slow lane: another limiter than this one).
    await a.app.dataSource.query(
      `UPDATE deliveries SET status = 'failed', status_code = 500, next_attempt_at = NULL WHERE webhook_id = $1`,
      [hook.id],
    );
    expect((await a.api('PATCH', `/webhooks/${hook.id}`, { rateLimit: BATCH_LIMIT })).status).toBe(200);
    // A limit read less than RATE_LIMIT_FRESH_MS ago is still the worker's (docs/deliveries.md#rate-limit).
    await new Promise((resolve) => setTimeout(resolve, RATE_LIMIT_FRESH_MS + 100));
    const [{ free_at: slotsFreeAt }] = await a.app.dataSource.query(
      `INSERT INTO webhook_send_slots (webhook_id, next_at) VALUES ($1, now() + make_interval(secs => $2))
       ON CONFLICT (webhook_id) DO UPDATE SET next_at = EXCLUDED.next_at RETURNING next_at AS free_at`,
      [hook.id, SLOTS_TAKEN_SECONDS],
    );
    const since = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const started = await a.api('POST', `/webhooks/${hook.id}/resend-failed`, { since });
    expect([started.status, started.body.total]).toEqual([202, BATCH]);
    const resentAt = async (): Promise<number[]> =>
      (
        await a.app.dataSource.query(
          `SELECT created_at FROM deliveries WHERE webhook_id = $1 AND resend_of IS NOT NULL`,
          [hook.id],
        )
      ).map((row: { created_at: Date }) => row.created_at.getTime());

    // While the batch's resends sleep for their slots, the workspace's other webhook and another
    // workspace get theirs as usual: not after the throttled webhook's slots.
    await eventually(async () => (await resentAt()).length >= 10, 'resends waiting for their slots', 60_000);
    const writtenAt = Date.now();
    const update = await a.api('PATCH', `/records/deal/${deals[0].id}`, {
      values: { [a.field('Name')]: 'Renamed during the batch' },
    });
    expect(update.status).toBe(200);
    expect((await b.createDeal('Meanwhile in B')).status).toBe(201);
    await eventually(() => arrivals('/free').length === 1 && arrivals('/b').length === 1, 'the neighbours');
    const neighbourWaits = [...arrivals('/free'), ...arrivals('/b')].map((r) => r.at - writtenAt);

    await eventually(
      () => arrivals('/throttled').length >= 2 * BATCH,
      'the batch delivered',
      (SLOTS_TAKEN_SECONDS + 60) * 1000,
    );
    const batch = arrivals('/throttled').slice(BATCH);
    const batchRate = rateOf(batch.map((r) => r.at));
    const made = await resentAt();
    process.stdout.write(
      `import: ${importRate.toFixed(2)}/s (no limit); resends made at ${rateOf(made).toFixed(2)}/s; ` +
        `batch received at ${batchRate.toFixed(2)}/s (limit ${BATCH_LIMIT}); ` +
        `neighbours waited ${neighbourWaits.join(', ')} ms\n`,
    );

    expect(batch).toHaveLength(BATCH);
    expect(new Set(batch.map((r) => r.json.id)).size).toBe(BATCH);
    // Every resend was made before the webhook's slots were free, and none was sent before then.
    expect(Math.max(...made)).toBeLessThan(slotsFreeAt.getTime());
    expect(Math.min(...batch.map((r) => r.at))).toBeGreaterThanOrEqual(slotsFreeAt.getTime() - 5);
    expect(batchRate).toBeGreaterThanOrEqual(BATCH_LIMIT * 0.9);
    expect(batchRate).toBeLessThanOrEqual(BATCH_LIMIT * 1.1);
    // The neighbours waited seconds at most on this busy machine, not for the throttled webhook.
    for (const wait of neighbourWaits) expect(wait).toBeLessThan(10_000);
  }, 480_000);
});
