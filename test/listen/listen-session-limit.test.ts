import { Client } from 'pg';
import { IsNull, Not } from 'typeorm';
import { databaseUrlOf } from '../../src/db/notifications';
import { LISTEN_RESUME_GRACE_MS } from '../../src/shared/limits';
import { Webhook } from '../../src/webhooks/webhook.entity';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { ListenCommand, openListenStream } from '../helpers/listen-command';
import { startSecondApiProcess, startTestApp, type TestApp } from '../helpers/test-app';
import { eventually } from '../helpers/eventually';
import { rateLimitBody } from '../helpers/floods';
import { WebClient } from '../helpers/web-client';

type Stream = Awaited<ReturnType<typeof openListenStream>>;

/**
 * Issue 37: a workspace holds at most LISTEN_SESSIONS_PER_WORKSPACE `listen` sessions at once
 * (docs/listen.md#how-many-sessions-at-once), here 3, seen from a stranger who signs up and opens
 * stream after stream: the next is refused before it opens, in the spec's 429 body with
 * `Retry-After`, and creates nothing; resuming one's own session still works; a session frees its
 * place when it ends; other workspaces are not touched; the count holds across two API processes
 * and under opens that race.
 */
describe('listen: the sessions one workspace may hold at once', () => {
  const LIMIT = 3;
  let app: TestApp;
  let second: Awaited<ReturnType<typeof startSecondApiProcess>> | undefined;
  const streams: Stream[] = [];
  const commands: ListenCommand[] = [];
  let accounts = 0;

  beforeAll(async () => {
    app = await startTestApp({ LISTEN_SESSIONS_PER_WORKSPACE: String(LIMIT) });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await Promise.all(commands.map((command) => command.stop()));
    await second?.close();
    await app?.close();
  });

  /** A stranger's fresh account: signed up, its own workspace, a key of it. */
  const freshAccount = async () => {
    const { client, session } = await WebClient.signUp(app.baseUrl, {
      email: `listen-limit-${++accounts}@example.com`,
    });
    const key = (await client.ok('POST', '/app/api/api-keys', { name: 'listen' })).value as string;
    return { key, workspaceId: session.workspace.id as string };
  };
  const open = async (key: string, query = '', baseUrl = app.baseUrl) => {
    const stream = await openListenStream(baseUrl, key, query);
    streams.push(stream);
    return stream;
  };
  /** A session opened: its stream and id. */
  const opened = async (key: string, query = '') => {
    const stream = await open(key, query);
    expect(stream.response.status).toBe(200);
    const first = (await stream.events.next()).value!;
    expect(first.name).toBe('session');
    return { stream, sessionId: first.data.sessionId as string, first };
  };
  const sessionRows = (workspaceId: string) =>
    app.dataSource.manager.countBy(Webhook, { workspaceId, listenerUntil: Not(IsNull()) });
  const expectAtLimit = async (stream: Stream) => {
    expect(stream.response.status).toBe(429);
    const retryAfter = Number(stream.response.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    // The soonest a session can end: no later than a closed stream's grace.
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(LISTEN_RESUME_GRACE_MS / 1000);
    expect(await stream.response.json()).toEqual(
      rateLimitBody('listenSessionLimit', `holds ${LIMIT} listen sessions`),
    );
  };

  it('opens up to the bound; the next is refused in the 429 body and creates nothing; resuming one’s own still works; another workspace opens', async () => {
    const stranger = await freshAccount();
    const sessions = [];
    for (let i = 0; i < LIMIT; i++) sessions.push(await opened(stranger.key, '?events=record.created'));
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);

    await expectAtLimit(await open(stranger.key));
    await expectAtLimit(await open(stranger.key, '?events=record.updated'));
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);

    // A dropped stream resumes its own session at the bound: no new session, no new row.
    const [dropped] = sessions;
    dropped!.stream.close();
    const resumed = await opened(stranger.key, `?session=${dropped!.sessionId}`);
    expect(resumed.first.data).toEqual({ sessionId: dropped!.sessionId, events: ['record.created'] });
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);

    // The command ends, with the service's reason, rather than retrying a place that may never free.
    const command = new ListenCommand([
      '--url',
      app.baseUrl,
      '--forward-to',
      'http://127.0.0.1:9/hook',
      '--api-key',
      stranger.key,
    ]);
    commands.push(command);
    expect(await command.exitCode()).toBe(1);
    expect(command.output()).toMatch(
      new RegExp(
        `^Failed: 429: This workspace holds ${LIMIT} listen sessions, .* \\[listenSessionLimit\\]$`,
        'm',
      ),
    );
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);

    // Another workspace's bound is its own.
    const neighbour = await freshAccount();
    await opened(neighbour.key);
    expect(await sessionRows(neighbour.workspaceId)).toBe(1);

    // /metrics names the refusal: the three above.
    const limited = await app.metrics.getSingleMetricAsString('http_rate_limited_total');
    expect(limited).toContain('http_rate_limited_total{route="/api/v1/listen",limit="listenSessionLimit"} 3');
  });

  it('frees a place when a closed stream’s session ends, before any sweep; until then it is kept for the resume', async () => {
    const stranger = await freshAccount();
    const sessions = [];
    for (let i = 0; i < LIMIT; i++) sessions.push(await opened(stranger.key));
    const [closed] = sessions;
    closed!.stream.close();
    // Closed, the session keeps its place through its grace (it can still resume)…
    await expectAtLimit(await open(stranger.key));

    // …and its grace ends (the row's time moved to where 60 s would bring it): the place is free,
    // while its row still waits for the sweep.
    await app.dataSource.query(`UPDATE webhooks SET listener_until = now() WHERE id = $1`, [
      closed!.sessionId,
    ]);
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);
    await opened(stranger.key);
    await expectAtLimit(await open(stranger.key));
    // An ended session cannot be resumed to take a place back.
    expect((await open(stranger.key, `?session=${closed!.sessionId}`)).response.status).toBe(404);
    expect(await new WebhooksRepository(app.dataSource.manager).removeEndedListeners(new Date())).toBe(1);
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);
  });

  it('counts across API processes: two opens racing at one below the bound, one on each process, leave exactly one more', async () => {
    second = await startSecondApiProcess(app);
    const stranger = await freshAccount();
    for (let i = 0; i < LIMIT - 1; i++) await opened(stranger.key);

    // The race made certain rather than lucky: a transaction of the test, on a connection of its own
    // (the app's pool is the racers'), holds back every write to the webhooks table (reads go on)
    // until both opens have counted, or wait to count, so that neither's row lands before the other
    // has read the count. Without the lock of the workspace's opens both would count one below the
    // bound and both win.
    const holder = new Client({ connectionString: databaseUrlOf(app.dataSource) });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE webhooks IN SHARE MODE');
    const racers = [app.baseUrl, second.baseUrl];
    const racing = Promise.all(racers.map((baseUrl) => open(stranger.key, '', baseUrl)));
    const waiting = async () =>
      Number(
        (
          await holder.query(
            `SELECT count(*) AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0].n,
      );
    try {
      await eventually(async () => (await waiting()) === racers.length, 'every open waits on a lock');
    } finally {
      await holder.query('COMMIT');
      await holder.end();
    }
    const answers = await racing;
    const statuses = answers.map((stream) => stream.response.status).sort();
    expect(statuses).toEqual([200, 429]);
    for (const stream of answers) if (stream.response.status === 429) await expectAtLimit(stream);
    expect(await sessionRows(stranger.workspaceId)).toBe(LIMIT);
  });
});
