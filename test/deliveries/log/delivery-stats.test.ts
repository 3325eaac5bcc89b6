import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../../helpers/web-client';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const floorTo = (time: number, size: number) => new Date(Math.floor(time / size) * size).toISOString();

/**
 * The chart of deliveries by outcome (GET /api/v1/webhooks/deliveries/stats and its /app/api
 * twin), counted by PostgreSQL from delivery rows inserted at known times.
 */
describe('delivery stats', () => {
  let app: TestApp;
  let admin: WebClient;
  let other: WebClient;
  let key: string;
  let hook: string;
  let quiet: string;
  let foreignHook: string;
  const now = Date.now();
  // Hours and days away from the windows' edges, so a boundary passing during the run moves nothing.
  const at = {
    oneHour: now - HOUR,
    threeHours: now - 3 * HOUR,
    twentyHours: now - 20 * HOUR,
    threeDays: now - 3 * DAY,
    tenDays: now - 10 * DAY,
    fortyDays: now - 40 * DAY,
  };

  beforeAll(async () => {
    app = await startTestApp();
    const a = await WebClient.signUp(app.baseUrl, { email: 'stats-a@example.com' });
    const b = await WebClient.signUp(app.baseUrl, { email: 'stats-b@example.com' });
    admin = a.client;
    other = b.client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'stats' })).value as string;
    const make = async (client: WebClient, url: string) =>
      (await client.ok('POST', '/app/api/webhooks', { url, events: ['messaging.chat.updated'] }))
        .id as string;
    hook = await make(admin, 'https://stats.example.com/busy');
    quiet = await make(admin, 'https://stats.example.com/quiet');
    foreignHook = await make(other, 'https://stats.example.com/foreign');
    // 'retrying' is a Failed delivery whose next attempt is scheduled.
    const insert = (workspace: string, webhook: string, status: string, time: number) =>
      app.dataSource.query(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, next_attempt_at,
                                 created_at, updated_at)
         VALUES ($1, $2, $3, 'messaging.chat.updated', 'https://stats.example.com/busy', 'event',
                 CASE WHEN $4 = 'retrying' THEN 'failed' ELSE $4 END,
                 CASE WHEN $4 = 'retrying' THEN now() + interval '1 minute' END, $5, $5)`,
        [workspace, webhook, randomUUID(), status, new Date(time)],
      );
    const mine = a.session.workspace.id as string;
    const theirs = b.session.workspace.id as string;
    await insert(mine, hook, 'delivered', at.oneHour);
    await insert(mine, hook, 'delivered', at.oneHour);
    await insert(mine, hook, 'failed', at.oneHour);
    await insert(mine, hook, 'retrying', at.oneHour);
    await insert(mine, hook, 'sending', at.oneHour);
    await insert(mine, hook, 'pending', at.threeHours);
    await insert(mine, quiet, 'failed', at.threeHours);
    await insert(mine, hook, 'delivered', at.twentyHours);
    await insert(mine, hook, 'failed', at.threeDays);
    await insert(mine, quiet, 'delivered', at.tenDays);
    await insert(mine, hook, 'delivered', at.fortyDays);
    // Another workspace's deliveries, at the same times, never counted.
    await insert(theirs, foreignHook, 'failed', at.oneHour);
    await insert(theirs, foreignHook, 'delivered', at.threeDays);
  });
  afterAll(async () => {
    await app.close();
  });

  const rest = async (path: string, apiKey = key): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { 'x-api-key': apiKey } });
    return { status: response.status, body: await response.json() };
  };
  const stats = async (query: string) => {
    const answer = await rest(`/webhooks/deliveries/stats${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  /** The buckets that hold something, by their start. */
  const nonEmpty = (body: {
    buckets: { start: string; delivered: number; failed: number; retrying: number; inFlight: number }[];
  }) =>
    Object.fromEntries(
      body.buckets
        .filter((b) => b.delivered + b.failed + b.retrying + b.inFlight > 0)
        .map(({ start, ...counts }) => [start, counts]),
    );

  it('counts the last 24 hours per hour, every hour present, only this workspace', async () => {
    const body = await stats('');
    expect(body).toMatchObject({ range: '24h', bucket: 'hour', webhookId: null });
    expect(body.buckets).toHaveLength(24);
    expect(body.buckets.at(-1).start).toBe(floorTo(Date.now(), HOUR));
    expect(body.to).toBe(new Date(Date.parse(body.buckets.at(-1).start) + HOUR).toISOString());
    expect(body.from).toBe(body.buckets[0].start);
    expect(nonEmpty(body)).toEqual({
      [floorTo(at.oneHour, HOUR)]: { delivered: 2, failed: 1, retrying: 1, inFlight: 1 },
      [floorTo(at.threeHours, HOUR)]: { delivered: 0, failed: 1, retrying: 0, inFlight: 1 },
      [floorTo(at.twentyHours, HOUR)]: { delivered: 1, failed: 0, retrying: 0, inFlight: 0 },
    });
    // Failed is failed for good; the retrying one is counted apart and out of the rate.
    expect(body.totals).toEqual({ delivered: 3, failed: 2, retrying: 1, inFlight: 2, successRate: 3 / 5 });
  });

  it('counts 7 and 30 days per UTC day', async () => {
    const week = await stats('?range=7d');
    expect(week).toMatchObject({ range: '7d', bucket: 'day' });
    expect(week.buckets).toHaveLength(7);
    expect(week.buckets.at(-1).start).toBe(floorTo(Date.now(), DAY));
    const inWeek = nonEmpty(week);
    expect(inWeek[floorTo(at.threeDays, DAY)]).toEqual({ delivered: 0, failed: 1, retrying: 0, inFlight: 0 });
    expect(week.totals).toEqual({ delivered: 3, failed: 3, retrying: 1, inFlight: 2, successRate: 0.5 });

    const month = await stats('?range=30d');
    expect(month.buckets).toHaveLength(30);
    expect(nonEmpty(month)[floorTo(at.tenDays, DAY)]).toEqual({
      delivered: 1,
      failed: 0,
      retrying: 0,
      inFlight: 0,
    });
    // Forty days ago is outside every range.
    expect(month.totals).toEqual({ delivered: 4, failed: 3, retrying: 1, inFlight: 2, successRate: 4 / 7 });
  });

  it('counts one webhook, and a webhook with nothing as zeros', async () => {
    const one = await stats(`?range=24h&webhookId=${quiet}`);
    expect(one.webhookId).toBe(quiet);
    expect(nonEmpty(one)).toEqual({
      [floorTo(at.threeHours, HOUR)]: { delivered: 0, failed: 1, retrying: 0, inFlight: 0 },
    });
    expect(one.totals).toEqual({ delivered: 0, failed: 1, retrying: 0, inFlight: 0, successRate: 0 });
    const busy = await stats(`?webhookId=${hook}`);
    expect(busy.totals).toEqual({ delivered: 3, failed: 1, retrying: 1, inFlight: 2, successRate: 0.75 });
  });

  it('refuses a webhook of another workspace or unknown with 404 webhookNotFound', async () => {
    for (const id of [foreignHook, '00000000-0000-4000-8000-000000000000']) {
      const answer = await rest(`/webhooks/deliveries/stats?webhookId=${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({
        kind: 'not_found',
        issues: [expect.objectContaining({ customCode: 'webhookNotFound' })],
      });
    }
  });

  it('refuses unknown and ill-formed parameters with the validation body', async () => {
    for (const query of ['?status=failed', '?range=1y', '?from=2026-01-01', '?webhookId=not-a-uuid']) {
      const answer = await rest(`/webhooks/deliveries/stats${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.error.kind).toBe('validation');
    }
    const unknown = await rest('/webhooks/deliveries/stats?status=failed');
    expect(unknown.body.error.issues[0]).toMatchObject({ customCode: 'unknownField' });
  });

  it('keeps "deliveries" and "stats" from being read as a webhook id', async () => {
    expect((await rest('/webhooks/deliveries')).body.data.length).toBe(11);
    expect((await rest(`/webhooks/${hook}`)).body.id).toBe(hook);
    const written = await fetch(`${app.baseUrl}/api/v1/webhooks/deliveries/stats`, {
      method: 'DELETE',
      headers: { 'x-api-key': key },
    });
    expect(written.status).toBe(405);
  });

  it('answers the same on /app/api, and the other workspace sees only its own', async () => {
    const web = await admin.ok('GET', '/app/api/webhooks/deliveries/stats?range=7d');
    expect(web).toEqual(await stats('?range=7d'));
    const theirs = await other.ok('GET', '/app/api/webhooks/deliveries/stats?range=7d');
    expect(theirs.totals).toEqual({ delivered: 1, failed: 1, retrying: 0, inFlight: 0, successRate: 0.5 });
    const refused = await other.request<any>('GET', `/app/api/webhooks/deliveries/stats?webhookId=${hook}`);
    expect(refused.status).toBe(404);
  });

  it('refuses a member without Read access on API & Webhooks, on /app/api and with their key', async () => {
    const role = await admin.ok('POST', '/app/api/roles', {
      name: 'Stats readers',
      apiRead: 'all',
      apiCreate: true,
    });
    const member = (
      await addMemberByInvitation(app.baseUrl, admin, { email: 'stats-member@example.com', roleId: role.id })
    ).client;
    const memberKey = (await member.ok('POST', '/app/api/api-keys', { name: 'member' })).value as string;
    expect((await rest('/webhooks/deliveries/stats', memberKey)).status).toBe(200);

    await admin.ok('PATCH', `/app/api/roles/${role.id}`, { apiRead: 'none', apiCreate: false });
    const web = await member.request<any>('GET', '/app/api/webhooks/deliveries/stats');
    expect(web.status).toBe(403);
    expect(web.body.error.issues[0].customCode).toBe('insufficientPermissions');
    const keyed = await rest('/webhooks/deliveries/stats', memberKey);
    expect(keyed.status).toBe(403);
    expect(keyed.body.error).toMatchObject({
      kind: 'authorization',
      issues: [expect.objectContaining({ customCode: 'insufficientPermissions' })],
    });
    // Nor does a webhook read carry health for them.
    expect((await member.request('GET', `/app/api/webhooks/${hook}`)).status).toBe(403);
  });
});
