import { serveMetrics } from '../../src/metrics/metrics-server';
import { createLogger } from '../../src/logger';
import { freePort } from '../helpers/ports';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * The API's series in /metrics (issue 37, item 5): requests and their durations by method, route
 * template and status, and 429s by the limit that refused them, read from GET /metrics as an
 * operator's Prometheus reads it. Small limits here: 2 requests a second per key, no burst, and
 * 3 keys that are not valid per address.
 */
describe('GET /metrics: the API by route, status and refusing limit', () => {
  let app: TestApp;
  let metrics: { url: string; close: () => Promise<void> };
  let key: string;

  beforeAll(async () => {
    app = await startTestApp({
      QUOTA_PER_KEY: '2',
      QUOTA_BURST_PER_KEY: '0',
      API_KEY_FAILURES_PER_ADDRESS: '3',
    });
    const port = await freePort();
    metrics = await serveMetrics(app.metrics, { host: '127.0.0.1', port, logger: createLogger('silent') });
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'metrics-admin@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'metrics' })).value;
  });

  afterAll(async () => {
    await metrics?.close();
    await app?.close();
  });

  const call = async (path: string, withKey = key, init: RequestInit = {}) => {
    const answer = await fetch(`${app.baseUrl}${path}`, {
      ...init,
      headers: { 'x-api-key': withKey, 'content-type': 'application/json', ...init.headers },
    });
    await answer.arrayBuffer();
    return answer.status;
  };
  /** The sample lines of one metric, as GET /metrics serves them. */
  const samples = async (name: string): Promise<string[]> => {
    const text = await (await fetch(metrics.url)).text();
    return text.split('\n').filter((line) => line.startsWith(`${name}{`));
  };
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it('counts and times requests by the route template (never the ids), method and status', async () => {
    await nextSecond();
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await call(`/api/v1/webhooks/${missing}`)).toBe(404);
    await nextSecond();
    expect(await call('/api/v1/webhooks')).toBe(200);
    expect(await call('/api/v1/no-such-thing/42')).toBe(404);

    const counted = await samples('http_requests_total');
    expect(counted).toContainEqual(
      'http_requests_total{method="GET",route="/api/v1/webhooks/:id",status="404"} 1',
    );
    expect(counted).toContainEqual(
      'http_requests_total{method="GET",route="/api/v1/webhooks",status="200"} 1',
    );
    // A path no route knows is one label value, whatever the path.
    expect(counted).toContainEqual('http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(counted.join('\n')).not.toContain(missing);
    expect(await samples('http_request_duration_seconds_count')).toContainEqual(
      'http_request_duration_seconds_count{method="GET",route="/api/v1/webhooks",status="200"} 1',
    );
    expect(await samples('http_request_duration_seconds_bucket')).toContainEqual(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/v1/webhooks",status="200"} 1',
    );
  });

  it('counts the MCP endpoint as one route', async () => {
    await nextSecond();
    const status = await call('/api/v1/mcp', key, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(status).toBe(200);
    expect(await samples('http_requests_total')).toContainEqual(
      'http_requests_total{method="POST",route="/api/v1/mcp",status="200"} 1',
    );
  });

  it("counts 429s by the limit that refused them: the key's quota, the throttle on keys that are not valid", async () => {
    await nextSecond();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await call('/api/v1/webhooks'));
    expect(statuses).toEqual([200, 200, 429, 429]);
    // Three keys that are not valid from this address, then the address is refused.
    const wrong = [];
    for (let i = 0; i < 4; i++) wrong.push(await call('/api/v1/webhooks', `wrong-key-${i}`));
    expect(wrong).toEqual([401, 401, 401, 429]);

    const limited = await samples('http_rate_limited_total');
    expect(limited).toContainEqual(
      'http_rate_limited_total{route="/api/v1/webhooks",limit="credentialQuota"} 2',
    );
    expect(limited).toContainEqual(
      'http_rate_limited_total{route="/api/v1/webhooks",limit="apiKeyThrottled"} 1',
    );
    expect(await samples('http_requests_total')).toContainEqual(
      'http_requests_total{method="GET",route="/api/v1/webhooks",status="429"} 3',
    );
  });
});
