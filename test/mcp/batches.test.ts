import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 34, item 1, from the side of a key holder who packs a hundred messages into one request:
 * the SDK's transport would take a JSON-RPC batch of up to 100 and run every message at once,
 * counted once against the request quotas and served in one place of the key's line. The endpoint
 * refuses a batch whole (400, JSON-RPC -32600) before any of its messages runs, as a request: after
 * the key, counted once, in the line, and over quota refused with 429 and held like any request,
 * so a flood of batches is held to the key's quota. One message per request is served as before.
 */
describe('MCP JSON-RPC batches', () => {
  let app: TestApp;
  let key: string;
  let workspaceId: string;

  beforeAll(async () => {
    // A small per-key quota, so that what a request spends shows in its RateLimit answer.
    app = await startTestApp({ QUOTA_PER_KEY: '5', QUOTA_BURST_PER_KEY: '0' });
    const { client, session } = await WebClient.signUp(app.baseUrl, { email: 'mcp-batches@example.com' });
    workspaceId = session.workspace.id;
    key = (await client.ok('POST', '/app/api/api-keys', { name: 'batches' })).value;
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = async (body: unknown, withKey = key) => {
    const response = await fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        ...(withKey ? { 'x-api-key': withKey } : {}),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const createDeal = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'create_record', arguments: { type: 'deal', values: { Name: `Batched deal ${id}` } } },
  });
  const records = async () =>
    Number(
      (
        await app.dataSource.query(`SELECT count(*) AS n FROM records WHERE workspace_id = $1`, [workspaceId])
      )[0].n,
    );
  /** Waits for the quota's next one-second window, so the next request is the first of its window. */
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it('refuses a batch of 100 create_record calls whole, before any of them runs: no record, one request counted', async () => {
    await nextSecond();
    const refused = await post(Array.from({ length: 100 }, (_, index) => createDeal(index + 1)));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('batches are not accepted') },
      id: null,
    });
    expect(await records()).toBe(0);
    // Counted as the one request it is: the next one is the second this window counts.
    expect(refused.headers.get('ratelimit')).toMatch(/^"credential";r=4;/);
    const next = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit')).toMatch(/^"credential";r=3;/);
  });

  it('holds a flood of batches to the key quota: 429 past it, each refusal held, nothing written', async () => {
    await nextSecond();
    const batch = Array.from({ length: 100 }, (_, index) => createDeal(index + 1));
    // 12 clients sending batches again the moment each is answered, for 2 s.
    const statuses: number[] = [];
    const until = Date.now() + 2000;
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        while (Date.now() < until) statuses.push((await post(batch)).status);
      }),
    );
    // 5 a second, no burst: about 10 (a window that opens as the flood ends adds at most 5) are
    // answered 400; the rest are 429, and held, so there are a few dozen, not thousands.
    expect(statuses.filter((status) => status === 400).length).toBeLessThanOrEqual(15);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 400 || status === 429)).toBe(true);
    expect(statuses.length).toBeLessThan(200);
    expect(await records()).toBe(0);
  });

  it('answers a batch without a key, or with one that is not valid, as any request: 401, nothing run', async () => {
    const batch = [createDeal(1)];
    for (const withKey of ['', 'not-a-key']) {
      const refused = await post(batch, withKey);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_api_key');
    }
    expect(await records()).toBe(0);
  });

  it('refuses a batch of one message, and a batch of reads, the same way', async () => {
    await nextSecond();
    for (const batch of [[createDeal(1)], [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]]) {
      const refused = await post(batch);
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe(-32600);
    }
    expect(await records()).toBe(0);
  });

  it('serves one message per request as before, over raw HTTP and the official client', async () => {
    const created = await post(createDeal(7));
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text' }] } });
    expect(created.body.result.isError).toBeFalsy();
    expect(await records()).toBe(1);

    await nextSecond();
    const mcp = await connectMcp(app.baseUrl, key);
    try {
      const listed = await mcp.call('search_records', { type: 'deal' });
      expect(listed.isError).toBeFalsy();
      expect(listed.content[0]!.text).toContain('Batched deal 7');
    } finally {
      await mcp.client.close();
    }
  });
});
