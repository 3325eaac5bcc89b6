import type { WorkspaceHealthView } from '../../../src/deliveries/log/workspace-health-view';
import { judgeHealth, tallyVerdicts } from '../../../src/shared/webhooks/health-verdict';
import type { WebhookView } from '../../../src/webhooks/webhook-view';
import { insertDeliveryAgo } from '../../helpers/delivery-rows';
import { startTestApp, type TestApp } from '../../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../../helpers/web-client';

/** More than the Webhooks list's largest page (200): the Dashboard once judged only those. */
const BULK = 260;
const HEALTH = '/app/api/webhooks/deliveries/health';

/**
 * The Dashboard's webhook health of a whole workspace (GET /app/api/webhooks/deliveries/health),
 * counted from the kept counts, the endpoints' states and each webhook's newest delivery: the
 * failing webhook is found however old it is, the words add up to what the Webhooks list and the
 * rule (health-verdict.ts) say of every webhook, and nothing of another workspace is counted.
 */
describe('workspace webhook health', () => {
  let app: TestApp;
  let a: WebClient;
  let b: WebClient;
  let admin: WebClient;
  let workspaceA: string;
  let workspaceB: string;
  const ids: Record<string, string> = {};

  const make = async (client: WebClient, url: string) =>
    (await client.ok('POST', '/app/api/webhooks', { url, events: ['messaging.chat.updated'] })).id as string;
  const deliver = (workspaceId: string, webhookId: string, state: string, ago: string) =>
    insertDeliveryAgo(app.dataSource, { workspaceId, webhookId, state, ago });
  const endpoint = (workspace: string, webhook: string, state: string, reason: string | null) =>
    app.dataSource.query(
      `INSERT INTO endpoint_states (webhook_id, workspace_id, state, reason, since, failures_in_a_row, updated_at)
       VALUES ($1, $2, $3, $4, now(), 0, now())`,
      [webhook, workspace, state, reason],
    );
  /** Every webhook of the workspace as the Webhooks list pages them, with the rule's word. */
  const listedVerdicts = async (client: WebClient) => {
    const all: WebhookView[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: WebhookView[]; nextCursor: string | null } = await client.ok(
        'GET',
        `/app/api/webhooks?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      all.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    return all.map((webhook) => ({ id: webhook.id, verdict: judgeHealth(webhook).verdict }));
  };

  beforeAll(async () => {
    app = await startTestApp();
    const signedUpA = await WebClient.signUp(app.baseUrl, { email: 'many-hooks@example.com' });
    const signedUpB = await WebClient.signUp(app.baseUrl, { email: 'other-hooks@example.com' });
    a = admin = signedUpA.client;
    b = signedUpB.client;
    workspaceA = signedUpA.session.workspace.id;
    workspaceB = signedUpB.session.workspace.id;

    // The oldest webhook of A fails: every delivery of its last 24 hours failed for good.
    ids.oldestFailing = await make(a, 'https://hooks.example.com/oldest');
    for (const ago of ['1 hour', '2 hours', '3 hours'])
      await deliver(workspaceA, ids.oldestFailing, 'failed', ago);
    // BULK newer webhooks, copied from it in SQL (the REST route per webhook is slow): the idle rest.
    await app.dataSource.query(
      `INSERT INTO webhooks
       SELECT (jsonb_populate_record(w, jsonb_build_object(
                 'id', gen_random_uuid(), 'url', 'https://hooks.example.com/bulk/' || i,
                 'enabled', i % 50 <> 0, 'created_at', now() + i * interval '1 second',
                 'updated_at', now() + i * interval '1 second'))).*
         FROM webhooks w, generate_series(1, $2::integer) AS i
        WHERE w.id = $1`,
      [ids.oldestFailing, BULK],
    );
    const bulk = async (n: number) =>
      (
        (await app.dataSource.query(`SELECT id FROM webhooks WHERE url = $1`, [
          `https://hooks.example.com/bulk/${n}`,
        ])) as { id: string }[]
      )[0]!.id;
    // Degraded three ways the rule knows: by its endpoint, by a retrying delivery, by its newest
    // delivery (failed for good three days ago: outside the 24 hours' counts).
    ids.endpointDegraded = await bulk(7);
    await deliver(workspaceA, ids.endpointDegraded, 'delivered', '1 hour');
    await endpoint(workspaceA, ids.endpointDegraded, 'degraded', 'Slow: 2.1 s');
    ids.retrying = await bulk(8);
    await deliver(workspaceA, ids.retrying, 'delivered', '2 hours');
    await deliver(workspaceA, ids.retrying, 'retrying', '1 hour');
    ids.lastFailedLongAgo = await bulk(9);
    await deliver(workspaceA, ids.lastFailedLongAgo, 'delivered', '4 days');
    await deliver(workspaceA, ids.lastFailedLongAgo, 'failed', '3 days');
    // Failing by its endpoint, the newest of all.
    ids.endpointFailing = await bulk(BULK - 1);
    await deliver(workspaceA, ids.endpointFailing, 'delivered', '5 hours');
    await endpoint(workspaceA, ids.endpointFailing, 'failing', '503 Service Unavailable');
    // Healthy: delivered; and one that failed but has recovered since its failures (endpoint healthy).
    ids.healthy = await bulk(11);
    await deliver(workspaceA, ids.healthy, 'delivered', '1 hour');
    ids.recoveredLongAgo = await bulk(12);
    await deliver(workspaceA, ids.recoveredLongAgo, 'failed', '9 days');
    await deliver(workspaceA, ids.recoveredLongAgo, 'delivered', '8 days');
    // An endpoint state with no delivery left (purged): not idle by the rule; healthy here.
    ids.stateOnly = await bulk(13);
    await endpoint(workspaceA, ids.stateOnly, 'healthy', null);
    // A disabled webhook that fails is no alarm (bulk 50 is disabled: i % 50 = 0).
    ids.disabledFailing = await bulk(50);
    await deliver(workspaceA, ids.disabledFailing, 'failed', '1 hour');
    await endpoint(workspaceA, ids.disabledFailing, 'failing', '500 Internal Server Error');

    // B: a small workspace with a failing webhook of its own, and one delivery under A's failing id.
    ids.otherFailing = await make(b, 'https://other.example.com/failing');
    await deliver(workspaceB, ids.otherFailing, 'failed', '1 hour');
    await endpoint(workspaceB, ids.otherFailing, 'failing', '404 Not Found');
    ids.otherHealthy = await make(b, 'https://other.example.com/fine');
    await deliver(workspaceB, ids.otherHealthy, 'delivered', '1 hour');
    await make(b, 'https://other.example.com/idle');
    await deliver(workspaceB, ids.oldestFailing, 'failed', '1 hour');
  }, 120_000);

  afterAll(async () => {
    await app.close();
  });

  it('finds the oldest webhook failing behind more than 200 newer ones, and lists it', async () => {
    const summary: WorkspaceHealthView = await a.ok('GET', HEALTH);
    expect(summary.total).toBe(BULK + 1);
    expect(summary.counts.failing).toBe(2);
    // Failing first (newest first among them), then degraded.
    expect(summary.inTrouble.map((webhook) => webhook.id)).toEqual([
      ids.endpointFailing,
      ids.oldestFailing,
      ids.lastFailedLongAgo,
      ids.retrying,
      ids.endpointDegraded,
    ]);
    expect(summary.moreInTrouble).toBe(0);
    // As the Webhooks list views it: the rule reads the same numbers from it.
    const oldest = summary.inTrouble[1]!;
    expect(oldest).toMatchObject({ url: 'https://hooks.example.com/oldest', enabled: true });
    expect(oldest.health.last24h).toMatchObject({ delivered: 0, failed: 3 });
    expect(judgeHealth(oldest)).toEqual({ verdict: 'failing', why: '24 h: 0 % delivered, 3 failed' });
  });

  it('counts every webhook by the word the Webhooks list and the rule give it', async () => {
    const listed = await listedVerdicts(a);
    expect(listed).toHaveLength(BULK + 1);
    const summary: WorkspaceHealthView = await a.ok('GET', HEALTH);
    expect(summary.counts).toEqual(tallyVerdicts(listed.map(({ verdict }) => verdict)));
    expect(summary.counts).toEqual({
      failing: 2,
      degraded: 3,
      // Delivered; recovered (its failures are 9 days old); an endpoint state with no delivery left.
      healthy: 3,
      idle: BULK + 1 - 2 - 3 - 3 - 5,
      disabled: 5,
    });
    // The small workspace too, word by word.
    const other: WorkspaceHealthView = await b.ok('GET', HEALTH);
    expect(other.counts).toEqual(tallyVerdicts((await listedVerdicts(b)).map(({ verdict }) => verdict)));
  });

  it('never counts or lists another workspace’s webhooks', async () => {
    const summary: WorkspaceHealthView = await a.ok('GET', HEALTH);
    expect(summary.inTrouble.map((webhook) => webhook.id)).not.toContain(ids.otherFailing);
    const other: WorkspaceHealthView = await b.ok('GET', HEALTH);
    expect(other).toMatchObject({
      total: 3,
      counts: { failing: 1, degraded: 0, healthy: 1, idle: 1, disabled: 0 },
      moreInTrouble: 0,
    });
    // B's delivery under A's webhook id makes no webhook of B's in trouble.
    expect(other.inTrouble.map((webhook) => webhook.id)).toEqual([ids.otherFailing]);
  });

  it('lists at most 50 in trouble, failing first, and says how many more', async () => {
    const retrying = (
      (await app.dataSource.query(
        `SELECT id FROM webhooks WHERE workspace_id = $1 AND enabled AND url LIKE '%/bulk/1__' ORDER BY url`,
        [workspaceA],
      )) as { id: string }[]
    ).map((row) => row.id);
    for (const id of retrying) await deliver(workspaceA, id, 'retrying', '1 hour');
    const summary: WorkspaceHealthView = await a.ok('GET', HEALTH);
    const inTrouble = 5 + retrying.length;
    expect(summary.counts.failing + summary.counts.degraded).toBe(inTrouble);
    expect(summary.inTrouble).toHaveLength(50);
    expect(summary.moreInTrouble).toBe(inTrouble - 50);
    expect(summary.inTrouble.slice(0, 2).map((webhook) => webhook.id)).toEqual([
      ids.endpointFailing,
      ids.oldestFailing,
    ]);
    expect(summary.counts).toEqual(tallyVerdicts((await listedVerdicts(a)).map(({ verdict }) => verdict)));
  });

  it('is answered with the read permission of the webhook list', async () => {
    const role = await admin.ok('POST', '/app/api/roles', { name: 'Health readers', apiRead: 'all' });
    const member = (
      await addMemberByInvitation(app.baseUrl, admin, { email: 'health-member@example.com', roleId: role.id })
    ).client;
    expect((await member.request('GET', HEALTH)).status).toBe(200);
    await admin.ok('PATCH', `/app/api/roles/${role.id}`, { apiRead: 'none' });
    const refused = await member.request<any>('GET', HEALTH);
    expect(refused.status).toBe(403);
    expect(refused.body.error.issues[0].customCode).toBe('insufficientPermissions');
    // Not a REST route: the web app's only.
    expect((await fetch(`${app.baseUrl}/api/v1/webhooks/deliveries/health`)).status).not.toBe(200);
  });
});
