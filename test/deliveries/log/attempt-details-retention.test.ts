import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { startAttemptDetailsSweep } from '../../../src/app/sweeps';
import { ATTEMPT_DETAILS_BATCH } from '../../../src/deliveries/log/attempt-details-rule';
import { expireAttemptDetails } from '../../../src/deliveries/log/attempt-details-sweep';
import { connectMcp } from '../../helpers/mcp';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { WebClient } from '../../helpers/web-client';

const DAY_MS = 24 * 60 * 60 * 1000;
/** More old attempts than two batches hold, so the sweep needs three. */
const BULK = 2 * ATTEMPT_DETAILS_BATCH + 7;

/**
 * Issue 26: each attempt's kept request (headers and body) has a retention window
 * (DELIVERY_ATTEMPT_DETAILS_DAYS, 30 by default); the sweep drops it from attempts older than the
 * window, in batches, and notes when. It never deletes a delivery or an attempt row, never changes
 * an attempt's outcome, and never touches an attempt inside the window
 * (docs/deliveries.md#what-is-kept-for-how-long-and-why: the delivery record and its payload are
 * kept as long as the workspace exists). Event Details (REST, /app/api, MCP) then say when the
 * request expired. Timestamps are set directly in SQL.
 */
describe('the retention window of attempt request details', () => {
  let app: TestApp;
  let workspaceId: string;
  let webhookId: string;
  let admin: WebClient;

  /** A delivery of the webhook created `daysAgo`, and its id. */
  async function delivery(daysAgo: number): Promise<string> {
    const [{ id }] = await app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
                               response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'record.created', 'https://example.com/hook', 'event', 'failed', 503,
               'Service Unavailable', 2, now(), now() - $4 * interval '1 day', now() - $4 * interval '1 day')
       RETURNING id`,
      [workspaceId, webhookId, randomUUID(), daysAgo],
    );
    return id as string;
  }

  /** A send of the delivery started `daysAgo`, with its request kept as the service keeps it, or none. */
  async function attempt(deliveryId: string, n: number, daysAgo: number, kept = true) {
    await app.dataSource.query(
      `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
                                      response_message, outcome, request_headers, request_body,
                                      request_body_sha256, request_body_bytes, response_headers,
                                      response_headers_omitted)
       VALUES ($1, $2, 1, now() - $3 * interval '1 day', 41, 'https://example.com/hook', $4, $5, $6,
               $7::jsonb, $8, $9, $10, '[["Content-Type","text/plain"]]', 0)`,
      kept
        ? [
            deliveryId,
            n,
            daysAgo,
            503,
            'Service Unavailable',
            'retry',
            '[["Content-Type","application/json"],["X-Service-Delivery-Id","x"]]',
            `{"attempt":${n}}`,
            'a'.repeat(64),
            13,
          ]
        : [deliveryId, n, daysAgo, 422, 'Not sent: template error', 'failed', null, null, null, null],
    );
  }

  const rowsOf = (deliveryId: string) =>
    app.dataSource.query(
      `SELECT attempt, started_at, duration_ms, status_code, response_message, outcome, request_headers,
              request_body, request_body_sha256, request_body_bytes, request_expired_at, response_headers
         FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`,
      [deliveryId],
    );
  const counts = async () =>
    (
      await app.dataSource.query(
        `SELECT (SELECT count(*)::int FROM deliveries) AS deliveries,
                (SELECT count(*)::int FROM delivery_attempts) AS attempts,
                (SELECT count(*)::int FROM delivery_attempts WHERE request_headers IS NOT NULL) AS kept,
                (SELECT count(*)::int FROM delivery_attempts WHERE request_expired_at IS NOT NULL) AS expired`,
      )
    )[0];

  let mixed: string; // an old attempt and one inside the window
  let recent: string;
  let edge: string; // a day short of the window
  let unsent: string; // old, but nothing was ever sent, so nothing kept

  beforeAll(async () => {
    app = await startTestApp();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'retention@example.com' });
    admin = signedUp.client;
    workspaceId = signedUp.session.workspace.id;
    webhookId = (
      await admin.ok('POST', '/app/api/webhooks', {
        url: 'https://example.com/hook',
        events: ['record.created'],
      })
    ).id;

    mixed = await delivery(40);
    await attempt(mixed, 1, 40);
    await attempt(mixed, 2, 10);
    recent = await delivery(1);
    await attempt(recent, 1, 1);
    edge = await delivery(29);
    await attempt(edge, 1, 29);
    unsent = await delivery(45);
    await attempt(unsent, 1, 45, false);
    // The bulk: deliveries of 31 days ago and older, each with one attempt whose request is kept.
    await app.dataSource.query(
      `WITH bulk AS (
         INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, status_code,
                                 attempts, created_at)
         SELECT $1, $2, gen_random_uuid(), 'record.created', 'https://example.com/hook', 'event', 'delivered',
                200, 1, now() - interval '31 days' - i * interval '1 minute'
           FROM generate_series(1, $3::integer) AS i
         RETURNING id, created_at
       )
       INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
                                      response_message, outcome, request_headers, request_body,
                                      request_body_sha256, request_body_bytes)
       SELECT id, 1, 1, created_at, 50, 'https://example.com/hook', 200, 'OK', 'delivered', '[]', '{}',
              repeat('b', 64), 2
         FROM bulk`,
      [workspaceId, webhookId, BULK],
    );
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  let before: Awaited<ReturnType<typeof counts>>;
  let oldRowsBefore: any[];
  let firstRun: { expired: number; batches: number };

  it('drops the request details of attempts older than the window, in batches, and notes when', async () => {
    before = await counts();
    oldRowsBefore = await rowsOf(mixed);
    const ranAt = Date.now();
    firstRun = await expireAttemptDetails(app.dataSource, { days: 30 });
    // The bulk and the one old send of `mixed`: three batches, the last one short.
    expect(firstRun).toEqual({ expired: BULK + 1, batches: 3 });

    const [old, inside] = await rowsOf(mixed);
    expect(old).toMatchObject({
      request_headers: null,
      request_body: null,
      request_body_sha256: null,
      request_body_bytes: null,
    });
    expect(old.request_expired_at.getTime()).toBeGreaterThanOrEqual(ranAt - 1_000);
    expect(old.request_expired_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    // What the attempt was stays: its time, duration, status code, message, outcome and the receiver's headers.
    for (const column of ['started_at', 'duration_ms', 'status_code', 'response_message', 'outcome'])
      expect({ [column]: old[column] }).toEqual({ [column]: oldRowsBefore[0][column] });
    expect(old.response_headers).toEqual([['Content-Type', 'text/plain']]);
    // Inside the window nothing changes.
    expect(inside).toEqual(oldRowsBefore[1]);
    expect(inside.request_body).toBe('{"attempt":2}');
  });

  it('never deletes a delivery or an attempt row, and leaves attempts inside the window as they were', async () => {
    const after = await counts();
    expect(after.deliveries).toBe(before.deliveries);
    expect(after.attempts).toBe(before.attempts);
    expect(after.expired).toBe(BULK + 1);
    // Kept: the second send of `mixed`, `recent` and `edge` (a day short of the window).
    expect(after.kept).toBe(3);
    expect(before.kept - after.kept).toBe(BULK + 1);
    for (const id of [recent, edge]) {
      const [row] = await rowsOf(id);
      expect(row.request_expired_at).toBeNull();
      expect(row.request_body).toBe('{"attempt":1}');
    }
    // Nothing was sent for `unsent`: nothing to expire, so it does not say expired.
    const [row] = await rowsOf(unsent);
    expect(row).toMatchObject({ request_headers: null, request_expired_at: null, outcome: 'failed' });
  });

  it('Event Details over REST, /app/api and MCP say the request expired, and when; the rest stays', async () => {
    const key = (await admin.ok('POST', '/app/api/api-keys', { name: 'retention' })).value as string;
    const [old] = await rowsOf(mixed);
    const expectExpired = (details: any) => {
      expect(details).toMatchObject({ id: mixed, status: 'failed', statusCode: 503, attempts: 2 });
      const [first, second] = details.attemptHistory;
      expect(first).toMatchObject({
        attempt: 1,
        statusCode: 503,
        responseMessage: 'Service Unavailable',
        outcome: 'retry',
        durationMs: 41,
        request: null,
        requestExpiredAt: old.request_expired_at.toISOString(),
        response: { headers: [{ name: 'Content-Type', value: 'text/plain' }], omittedHeaders: 0 },
      });
      expect(first.startedAt).toBe(old.started_at.toISOString());
      // Inside the window: the request as kept, not expired.
      expect(second).toMatchObject({
        attempt: 2,
        requestExpiredAt: null,
        request: { body: '{"attempt":2}' },
      });
    };

    const rest = await fetch(`${app.baseUrl}/api/v1/webhooks/${webhookId}/deliveries/${mixed}`, {
      headers: { 'x-api-key': key },
    });
    expect(rest.status).toBe(200);
    expectExpired(await rest.json());
    expectExpired(await admin.ok('GET', `/app/api/webhooks/${webhookId}/deliveries/${mixed}`));
    const mcp = await connectMcp(app.baseUrl, key, { readOnly: true });
    try {
      await mcp.client.listTools(); // the SDK then checks the answer against get_delivery's outputSchema
      const got = await mcp.call('get_delivery', { deliveryId: mixed });
      expect(got.isError).toBeFalsy();
      expectExpired(got.structuredContent);
    } finally {
      await mcp.client.close();
    }
    // Nothing was sent for `unsent`: no request, and not expired either.
    const none = await admin.ok('GET', `/app/api/webhooks/${webhookId}/deliveries/${unsent}`);
    expect(none.attemptHistory[0]).toMatchObject({ request: null, requestExpiredAt: null });
  });

  it('is idempotent: a second run finds nothing and keeps the first run’s dates', async () => {
    const expiredAt = (await rowsOf(mixed))[0].request_expired_at;
    expect(await expireAttemptDetails(app.dataSource, { days: 30 })).toEqual({ expired: 0, batches: 1 });
    expect((await rowsOf(mixed))[0].request_expired_at).toEqual(expiredAt);
    expect(await counts()).toMatchObject({ expired: BULK + 1, kept: 3 });
  });

  it('follows the window: a shorter one drops what the longer one kept, counted from each attempt', async () => {
    // A run as of tomorrow with the window down to 28 days: `edge` (29 days) and `mixed`'s second
    // send (10 days) are split by it.
    const tomorrow = new Date(Date.now() + DAY_MS);
    expect(await expireAttemptDetails(app.dataSource, { days: 28, now: tomorrow })).toEqual({
      expired: 1,
      batches: 1,
    });
    expect((await rowsOf(edge))[0].request_expired_at).toBeInstanceOf(Date);
    expect((await rowsOf(mixed))[1].request_expired_at).toBeNull();
    expect((await rowsOf(recent))[0].request_expired_at).toBeNull();
  });

  it('runs at a worker’s start (then hourly) and logs how many it dropped', async () => {
    const old = await delivery(60);
    await attempt(old, 1, 60);
    const logged: { msg: string; expired?: number; batches?: number; days?: number }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const stop = startAttemptDetailsSweep(app.dataSource, 30, logger);
    try {
      const deadline = Date.now() + 10_000;
      while (logged.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await stop();
    }
    expect(logged).toEqual([
      expect.objectContaining({
        msg: 'dropped the request details of delivery attempts older than the retention window',
        expired: 1,
        batches: 1,
        days: 30,
      }),
    ]);
    expect((await rowsOf(old))[0].request_expired_at).toBeInstanceOf(Date);
  });

  it('stops between batches when its process is stopping', async () => {
    // Two attempts are past a 1-day window (`recent` and `mixed`'s second); batches of one, and the
    // process stops after the first batch.
    let checks = 0;
    const stopping = {
      get aborted() {
        return ++checks > 1;
      },
    } as AbortSignal;
    expect(await expireAttemptDetails(app.dataSource, { days: 1, batchSize: 1, signal: stopping })).toEqual({
      expired: 1,
      batches: 1,
    });
    expect(await counts()).toMatchObject({ kept: 1 });
  });
});
