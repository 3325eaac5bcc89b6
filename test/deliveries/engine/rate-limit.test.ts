import { RATE_LIMIT_FRESH_MS } from '../../../src/deliveries/capacity/send-throttle';
import { secondTenant, startCapacityStack, type CapacityStack } from '../../helpers/capacity-stack';
import type { DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import type { Receiver } from '../../helpers/receiver';

const BATCH = 100;
/**
 * Deliveries per second of the throttled webhook during the resend batch: below what this busy
 * machine's stack can send (the import below, with no limit, arrived at 8 to 12 a second with
 * other work on the two cores, 16 to 21 with none; 100 deliveries waiting in their workflows went
 * out at 8.4 a second under a limit of 10). The issue's 20 is above that: here the stack, not the
 * batch, could not keep it.
 */
const BATCH_LIMIT = 5;
/**
 * How long the webhook's slots are taken when the batch starts, as a bulk import sent just before
 * would have taken them: a head start for the batch. It makes its resends 8 at a time
 * (workflows/resend-failed.workflow.ts), 8 a second here with other work sharing the two cores and
 * 19 when they are free (one after another it made 2.5 to 8.4, and this test took 150 s of slots):
 * with 10 s it stays ahead of the limit to its last resend while it makes more than 3.3 a second,
 * so the batch's pace is the limit's and not the batch's own (the test checks it was).
 */
const SLOTS_TAKEN_SECONDS = 10;

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
    // Each delivery records its outcome after its POST is answered: all of them first, or one
    // recorded after the update below would be Delivered again and left out of the batch.
    const recorded = async () =>
      (
        await a.app.dataSource.query(
          `SELECT count(*)::int AS n FROM deliveries WHERE webhook_id = $1 AND status = 'delivered'`,
          [hook.id],
        )
      )[0].n;
    await eventually(async () => (await recorded()) === BATCH, 'the import recorded');

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
    const made = (await resentAt()).sort((x, y) => x - y);
    const received = batch.map((r) => r.at).sort((x, y) => x - y);
    // How far the batch stayed ahead of the limit: at each arrival, how long the next resend had
    // already been made (negative if it was made later, the batch then setting the pace).
    const lead = Math.min(...made.slice(1).map((at, k) => received[k]! - at));
    process.stdout.write(
      `import: ${importRate.toFixed(2)}/s (no limit); resends made at ${rateOf(made).toFixed(2)}/s, ` +
        `${((made.at(-1)! - made[0]!) / 1000).toFixed(1)} s for ${made.length}, ahead of the limit by ${lead} ms at the least; ` +
        `batch received at ${batchRate.toFixed(2)}/s (limit ${BATCH_LIMIT}); ` +
        `neighbours waited ${neighbourWaits.join(', ')} ms\n`,
    );

    expect(batch).toHaveLength(BATCH);
    expect(new Set(batch.map((r) => r.json.id)).size).toBe(BATCH);
    // None was sent before the webhook's slots were free, and the batch stayed ahead of the limit:
    // each resend was made before the one before it was received, so every delivery of the batch
    // waited for its slot, not for the batch to make it.
    expect(received[0]).toBeGreaterThanOrEqual(slotsFreeAt.getTime() - 5);
    expect(made).toHaveLength(BATCH);
    expect(lead).toBeGreaterThan(0);
    expect(batchRate).toBeGreaterThanOrEqual(BATCH_LIMIT * 0.9);
    expect(batchRate).toBeLessThanOrEqual(BATCH_LIMIT * 1.1);
    // The neighbours waited seconds at most on this busy machine, not for the throttled webhook.
    for (const wait of neighbourWaits) expect(wait).toBeLessThan(10_000);
  }, 480_000);
});
