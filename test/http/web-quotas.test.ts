import { floodFor, inARow, quotaRefusalBody } from '../helpers/floods';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 34, item 2, from the side of a signed-in person who floods the web app's JSON routes: each
 * session has its token bucket, and the workspace's bucket is the one its API keys draw from, so a
 * session over either is refused with 429 rate_limit, Retry-After and the spec's body, while another
 * workspace's session is served. Small quotas here: 3 a second with a burst of 2 more per session,
 * 8 a second with no burst per workspace; API keys are not the limit (100 a second).
 */
describe('request quotas of the web app (/app/api) per session and per workspace', () => {
  let app: TestApp;
  let people = 0;

  beforeAll(async () => {
    app = await startTestApp({
      QUOTA_PER_SESSION: '3',
      QUOTA_BURST_PER_SESSION: '2',
      QUOTA_PER_WORKSPACE: '8',
      QUOTA_BURST_PER_WORKSPACE: '0',
      QUOTA_PER_KEY: '100',
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A new person in a new workspace: a fresh session, whose burst reserve is whole. */
  const signUp = async () =>
    (await WebClient.signUp(app.baseUrl, { email: `web-quota-${++people}@example.com` })).client;
  /** The raw answer of a web app route, with the session's cookie. */
  const get = (client: WebClient, path = '/app/api/webhooks') =>
    fetch(`${app.baseUrl}${path}`, { headers: { cookie: `crm_session=${client.sessionCookie}` } });
  /** Waits until every one-second window an earlier request opened has ended. */
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it("serves a session its rate and burst, then refuses it with 429, Retry-After and the spec's body", async () => {
    const flooder = await signUp();
    await nextSecond();
    const { statuses, refused } = await inARow(8, () => get(flooder));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.headers.get('ratelimit-policy')).toBe(
      '"session";q=3;w=1, "session-burst";q=2;w=10, "workspace";q=8;w=1, "person";q=100000;w=1, "person-burst";q=250;w=10',
    );
    expect(await refused!.json()).toEqual(quotaRefusalBody('this session'));
  });

  it("a flooding session is held to its quota while another workspace's session is served", async () => {
    const flooder = await signUp();
    const other = await signUp();
    await nextSecond();
    // 16 clients of one session, each sending again the moment it is answered, for 2 s.
    const until = Date.now() + 2000;
    const flood = floodFor(2000, 16, async () => {
      const response = await get(flooder);
      await response.arrayBuffer();
      return response;
    });
    const othersStatuses: number[] = [];
    while (Date.now() < until) {
      const response = await get(other);
      await response.arrayBuffer();
      othersStatuses.push(response.status);
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const statuses = await flood;
    expect(othersStatuses.length).toBeGreaterThanOrEqual(3);
    expect(othersStatuses.every((status) => status === 200)).toBe(true);
    // Never served beyond its quota (3 a second and the burst of 2, over about 2 s), and each
    // refusal held in the session's own line: a few refusals a second, not thousands.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(3 * 3 + 2);
    const refusals = statuses.filter((status) => status === 429).length;
    expect(refusals).toBeGreaterThan(0);
    expect(refusals).toBeLessThan(80);
  });

  it("draws a workspace's sessions and its API keys from one workspace quota", async () => {
    const admin = await signUp();
    const key = (await admin.ok('POST', '/app/api/api-keys', { name: 'shared' })).value as string;
    const colleague = await signUp();
    await nextSecond();
    // Six requests with the key, then the session: the workspace's 8 a second run out at its third.
    for (let i = 0; i < 6; i++) {
      const response = await fetch(`${app.baseUrl}/api/v1/webhooks`, { headers: { 'x-api-key': key } });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const answers: Response[] = [];
    for (let i = 0; i < 3; i++) answers.push(await get(admin));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(((await answers[2]!.json()) as any).error.issues[0].message).toContain(
      'Too many requests for this workspace',
    );
    // Another workspace is untouched.
    expect((await get(colleague)).status).toBe(200);
  });

  it('answers where the session stands on every answer of a signed-in route', async () => {
    const person = await signUp();
    await nextSecond();
    const session = await get(person, '/app/api/session');
    expect(session.status).toBe(200);
    expect(session.headers.get('ratelimit')).toMatch(
      /^"session";r=2;t=\d+, "workspace";r=7;t=\d+, "person";r=\d+;t=\d+$/,
    );
  });
});
