import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { generateApiKeyValue } from '../../src/api-keys/api-key-value';
import { freshLoopbackAddress } from '../helpers/oauth';
import { startSecondApiProcess, startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 34, item 7: random keys were looked up without limit (825 a second from one address).
 * From the attacker's side: an address that sent API_KEY_FAILURES_PER_ADDRESS keys that are not
 * valid within the window is answered 429 `apiKeyThrottled` with Retry-After, over REST and MCP,
 * before its keys are looked up; another address, and a valid key from it, are served as before.
 * Each "client machine" sends from a loopback address of its own (127.1.x.y).
 */
describe('keys that are not valid, per client address', () => {
  const BUDGET = 5;
  const WINDOW = 600;
  let app: TestApp;
  let second: { baseUrl: string; close: () => Promise<void> };
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      API_KEY_FAILURES_PER_ADDRESS: String(BUDGET),
      API_KEY_FAILURE_WINDOW_SECONDS: String(WINDOW),
    });
    second = await startSecondApiProcess(app);
    const { client } = await WebClient.signUp(app.baseUrl, { email: 'keys@example.com' });
    key = (await client.ok('POST', '/app/api/api-keys', { name: 'real' })).value as string;
  });
  afterAll(async () => {
    await second?.close();
    await app?.close();
  });

  interface Answer {
    status: number;
    headers: IncomingHttpHeaders;
    body: any;
  }
  /** One request from the loopback address `from`, over a connection of its own. */
  const send = (
    baseUrl: string,
    from: string,
    apiKey: string,
    surface: 'rest' | 'mcp' | 'mcp-bearer' = 'rest',
  ): Promise<Answer> => {
    const body =
      surface === 'rest' ? undefined : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        new URL(surface === 'rest' ? '/api/v1/me' : '/api/v1/mcp', baseUrl),
        {
          method: surface === 'rest' ? 'GET' : 'POST',
          localAddress: from,
          agent: false,
          headers: {
            ...(surface === 'mcp-bearer' ? { authorization: `Bearer ${apiKey}` } : { 'x-api-key': apiKey }),
            ...(body
              ? {
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                  'content-length': Buffer.byteLength(body),
                }
              : {}),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              headers: response.headers,
              body: text ? JSON.parse(text) : undefined,
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };

  /** A fresh random key of the right shape (64 letters), as an attacker's guess: no one holds it. */
  const guess = () => generateApiKeyValue();

  const invalidOverRest = {
    error: {
      kind: 'authentication',
      issues: [
        {
          code: 'authentication',
          path: [],
          message: 'The API key is not valid.',
          customCode: 'apiKeyInvalid',
        },
      ],
    },
  };
  const expectThrottled = (answer: Answer) => {
    expect(answer.status).toBe(429);
    expect(answer.body).toEqual({
      error: {
        kind: 'rate_limit',
        issues: [
          {
            code: 'rate_limit',
            path: [],
            message: expect.stringMatching(
              /^Too many requests with an API key or access token that is not valid from this address\. Try again in \d+ seconds\.$/,
            ),
            customCode: 'apiKeyThrottled',
          },
        ],
        retryable: true,
      },
    });
    const retryAfter = Number(answer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW);
  };
  const failureRows = async () =>
    (await app.dataSource.query(
      `SELECT key, points FROM rate_limits WHERE key LIKE 'api-key-failures-address:%' ORDER BY key`,
    )) as { key: string; points: number }[];
  const lastUsed = async () =>
    (await app.dataSource.query(`SELECT last_used_at FROM api_keys`))[0].last_used_at as Date | null;

  it(`answers 401 to the first ${BUDGET} guesses from an address and 429 to the rest, REST and MCP alike, looking none of those up`, async () => {
    const from = freshLoopbackAddress();
    for (let i = 0; i < BUDGET; i++) {
      const answer = await send(app.baseUrl, from, guess(), i % 2 ? 'mcp' : 'rest');
      expect(answer.status).toBe(401);
      if (i % 2 === 0) expect(answer.body).toEqual(invalidOverRest);
      else expect(answer.body).toMatchObject({ error: 'invalid_api_key' });
    }
    const counted = await failureRows();
    for (let i = 0; i < 20; i++)
      expectThrottled(await send(app.baseUrl, from, guess(), i % 2 ? 'mcp' : 'rest'));
    // A value that is not even a key's shape is refused the same way.
    expectThrottled(await send(app.baseUrl, from, 'short'));
    // The refused ones were not counted either: decided in memory, before any lookup or write.
    expect(await failureRows()).toEqual(counted);
  });

  it('a simultaneous flood from one address: what is in flight when the budget is reached is answered 401, the rest 429', async () => {
    const from = freshLoopbackAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, () => send(app.baseUrl, from, guess())));
    const refused = answers.filter((answer) => answer.status === 429);
    // Those already in flight when the budget was reached are answered 401; the rest are refused.
    expect(answers.filter((answer) => answer.status === 401).length).toBeGreaterThanOrEqual(BUDGET);
    expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(refused.length).toBeGreaterThan(0);
    refused.forEach(expectThrottled);
    expectThrottled(await send(app.baseUrl, from, guess()));
  });

  it('a throttled address gets 429 with a valid key as well, and the key is not touched', async () => {
    const from = freshLoopbackAddress();
    for (let i = 0; i < BUDGET; i++) expect((await send(app.baseUrl, from, guess())).status).toBe(401);
    const before = await lastUsed();
    expectThrottled(await send(app.baseUrl, from, key));
    expectThrottled(await send(app.baseUrl, from, key, 'mcp'));
    expect(await lastUsed()).toEqual(before);
  });

  it('another address, and a valid key from it, are served as before, and valid keys write no count', async () => {
    const attacker = freshLoopbackAddress();
    for (let i = 0; i < BUDGET + 5; i++) await send(app.baseUrl, attacker, guess());
    expectThrottled(await send(app.baseUrl, attacker, guess()));

    const neighbour = freshLoopbackAddress();
    const rows = await failureRows();
    for (let i = 0; i < 30; i++) {
      const answer = await send(app.baseUrl, neighbour, key, i % 2 ? 'mcp' : 'rest');
      expect(answer.status).toBe(200);
    }
    expect(await failureRows()).toEqual(rows);
    // A guess from the neighbour is still only a 401: its budget is its own.
    expect(await send(app.baseUrl, neighbour, guess())).toMatchObject({ status: 401, body: invalidOverRest });
  });

  it('random OAuth access tokens at the MCP endpoint count against the same budget as keys', async () => {
    const from = freshLoopbackAddress();
    for (let i = 0; i < BUDGET; i++) {
      const answer = await send(app.baseUrl, from, generateApiKeyValue(), i < 2 ? 'mcp-bearer' : 'rest');
      expect(answer.status).toBe(401);
      if (i < 2) expect(answer.body).toMatchObject({ error: 'invalid_token' });
    }
    expectThrottled(await send(app.baseUrl, from, generateApiKeyValue(), 'mcp-bearer'));
    expectThrottled(await send(app.baseUrl, from, guess()));
  });

  it('two API processes count in one place: the second refuses once the budget is spent across both', async () => {
    const from = freshLoopbackAddress();
    for (let i = 0; i < BUDGET; i++) {
      const baseUrl = i % 2 ? second.baseUrl : app.baseUrl;
      expect((await send(baseUrl, from, guess())).status).toBe(401);
    }
    expectThrottled(await send(app.baseUrl, from, guess()));
    // The second process learns it at its first failure past the budget: one more lookup, then 429.
    const learning = await send(second.baseUrl, from, guess());
    expect([401, 429]).toContain(learning.status);
    expectThrottled(await send(second.baseUrl, from, guess()));
    expectThrottled(await send(second.baseUrl, from, key));
  });
});
