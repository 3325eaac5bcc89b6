import { floodFor, inARow, quotaRefusalBody } from '../helpers/floods';
import { connectMcp } from '../helpers/mcp';
import { startSecondApiProcess, startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Request quotas (issue 24, item 6), from the side of a client that floods: each API key and each
 * workspace has its token bucket, counted in PostgreSQL so two API processes share it; over it, 429
 * rate_limit with Retry-After (REST) or the same in `_meta.failure` (an MCP tool call), and every
 * answer carries the IETF RateLimit fields. Small quotas here: 3 a second with a burst of 2 more
 * per key, 8 a second with no burst per workspace.
 */
describe('request quotas per API key and per workspace', () => {
  let app: TestApp;
  let second: { baseUrl: string; close: () => Promise<void> };
  let admin: WebClient;
  let key: string;
  let otherWorkspaceKey: string;

  beforeAll(async () => {
    app = await startTestApp({
      QUOTA_PER_KEY: '3',
      QUOTA_BURST_PER_KEY: '2',
      QUOTA_PER_WORKSPACE: '8',
      QUOTA_BURST_PER_WORKSPACE: '0',
    });
    // A second API process on the same database, as the production topology runs two.
    second = await startSecondApiProcess(app);
    admin = (await WebClient.signUp(app.baseUrl, { email: 'quota-admin@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'flood' })).value;
    const other = (await WebClient.signUp(app.baseUrl, { email: 'quota-other@example.com' })).client;
    otherWorkspaceKey = (await other.ok('POST', '/app/api/api-keys', { name: 'other' })).value;
  });

  afterAll(async () => {
    await second?.close();
    await app?.close();
  });

  const get = (baseUrl: string, withKey: string) =>
    fetch(`${baseUrl}/api/v1/webhooks`, { headers: { 'x-api-key': withKey } });

  /**
   * Waits until every one-second window an earlier test opened has ended (a window starts at its
   * key's first request). Burst reserves last 10 s: tests that count on one use fresh keys.
   */
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it('lets a key make its rate and burst, then refuses it with 429, Retry-After and the RateLimit fields, in both API processes', async () => {
    await nextSecond();
    // Alternating between the two processes: they count in one bucket.
    let sent = 0;
    const { statuses, refused } = await inARow(8, () => get(sent++ % 2 ? second.baseUrl : app.baseUrl, key));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused!.headers.get('ratelimit-policy')).toBe(
      '"credential";q=3;w=1, "credential-burst";q=2;w=10, "workspace";q=8;w=1, "person";q=100000;w=1, "person-burst";q=250;w=10',
    );
    expect(refused!.headers.get('ratelimit')).toMatch(
      /^"credential";r=0;t=\d+, "credential-burst";r=0;t=\d+$/,
    );
    expect(await refused!.json()).toEqual(quotaRefusalBody('this API key or connection'));
  });

  it('says in RateLimit what the burst reserve still answers once the second is spent (issue 37, item 6)', async () => {
    const fresh = (await admin.ok('POST', '/app/api/api-keys', { name: 'burst' })).value as string;
    await nextSecond();
    const answers: { status: number; credential: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await get(app.baseUrl, fresh);
      await answer.arrayBuffer();
      // The key's items, without the workspace's and the creator's, and without their reset times.
      const credential = answer.headers
        .get('ratelimit')!
        .split(', "workspace"')[0]!
        .replace(/;t=\d+/g, '');
      answers.push({ status: answer.status, credential });
    }
    // Once the second is spent (r=0), the reserve's item says how many more are still answered.
    expect(answers).toEqual([
      { status: 200, credential: '"credential";r=2' },
      { status: 200, credential: '"credential";r=1' },
      { status: 200, credential: '"credential";r=0, "credential-burst";r=2' },
      { status: 200, credential: '"credential";r=0, "credential-burst";r=1' },
      { status: 200, credential: '"credential";r=0, "credential-burst";r=0' },
      { status: 429, credential: '"credential";r=0, "credential-burst";r=0' },
    ]);
  });

  it("does not touch another workspace's key, and says where it stands on every answer", async () => {
    await nextSecond();
    for (let i = 0; i < 8; i++) await (await get(app.baseUrl, key)).arrayBuffer();
    const other = await get(app.baseUrl, otherWorkspaceKey);
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit')).toMatch(
      /^"credential";r=2;t=\d+, "workspace";r=7;t=\d+, "person";r=\d+;t=\d+$/,
    );
  });

  it("counts every key of a workspace against the workspace's quota", async () => {
    const first = (await admin.ok('POST', '/app/api/api-keys', { name: 'first' })).value as string;
    const second = (await admin.ok('POST', '/app/api/api-keys', { name: 'second' })).value as string;
    await nextSecond();
    const answers: Response[] = [];
    // Two keys, each within its own 3 (+2), together over the workspace's 8.
    for (let i = 0; i < 10; i++) answers.push(await get(app.baseUrl, i % 2 ? first : second));
    expect(answers.map((answer) => answer.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 429, 429,
    ]);
    expect(((await answers[9]!.json()) as any).error.issues[0].message).toContain(
      'Too many requests for this workspace',
    );
  });

  it('refuses an MCP tool call over the quota with rate_limit in _meta.failure, and tools/list with 429', async () => {
    const mcp = await connectMcp(app.baseUrl, otherWorkspaceKey);
    try {
      await nextSecond();
      const results = [];
      for (let i = 0; i < 7; i++) results.push(await mcp.call('manage_webhooks', { action: 'list' }));
      const refusal = results.find((result) => result.isError);
      expect(refusal?._meta?.failure).toEqual({
        kind: 'rate_limit',
        retryable: true,
        retryAfterSeconds: expect.any(Number),
        issues: [expect.objectContaining({ customCode: 'requestQuotaExceeded' })],
      });
      expect(refusal?.content[0]?.text).toContain('Refused (rate_limit)');
      await expect(mcp.client.listTools()).rejects.toThrow(/requestQuotaExceeded/);
    } finally {
      await mcp.client.close();
    }
  });
  it('a key that retries at once is answered a few refusals a second, not as fast as the process can refuse', async () => {
    const flooder = (await admin.ok('POST', '/app/api/api-keys', { name: 'spinning' })).value;
    await nextSecond();
    // 16 clients of one key, each sending again the moment it is answered, for 2 s.
    const statuses = await floodFor(2000, 16, async () => {
      const response = await get(app.baseUrl, flooder);
      await response.arrayBuffer();
      return response;
    });
    const refused = statuses.filter((status) => status === 429).length;
    // Each refusal is held for half the time to the quota's next window, in the key's own line
    // (2 at a time): answered at once, the same loop gets hundreds of refusals a second here.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(80);
    // Never served beyond its quota: 3 a second and the burst of 2, over about 2 s.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(3 * 3 + 2);
  });
});
