// The delivery log's read routes as a user reaches them, timed: each route's first call, then the
// p50 of 20 more, over REST (and the search over MCP too).
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { summarize, wallMs } from '../stats';
import { filterRoutes, type FilterTarget } from './filters';

export interface RouteTiming {
  route: string;
  firstMs: number;
  p50Ms: number;
  /** What the last answer held (rows, or the count it said), to show the route did its work. */
  answered: string;
}

export interface LogTarget extends FilterTarget {
  baseUrl: string;
  apiKey: string;
  /** A session of the workspace's Admin, for the web app's own routes (Dashboard, resend preview). */
  cookie: string;
  /** A delivery the service made, to open in Event Details, and its webhook. */
  deliveryId: string;
  deliveryWebhookId: string;
}

const REPEAT = 20;

async function timed(call: () => Promise<string>): Promise<{ ms: number; answered: string }> {
  const started = wallMs();
  const answered = await call();
  return { ms: wallMs() - started, answered };
}

async function measure(route: string, call: () => Promise<string>): Promise<RouteTiming> {
  const first = await timed(call);
  const times: number[] = [];
  let answered = first.answered;
  for (let i = 0; i < REPEAT; i++) {
    const next = await timed(call);
    times.push(next.ms);
    answered = next.answered;
  }
  return { route, firstMs: first.ms, p50Ms: summarize(times).p50, answered };
}

export async function measureRoutes(target: LogTarget): Promise<RouteTiming[]> {
  /** An answer of the API, read loosely: the bench only counts what came back. */
  type Answer = { data: unknown[]; total?: unknown; nextCursor?: string; attemptHistory?: unknown[] };
  const get = async (path: string, as: 'key' | 'session' = 'key'): Promise<Answer> => {
    const response = await fetch(
      as === 'key' ? `${target.baseUrl}/api/v1${path}` : `${target.baseUrl}/app/api${path}`,
      { headers: as === 'key' ? { 'x-api-key': target.apiKey } : { cookie: target.cookie } },
    );
    const text = await response.text();
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Answer;
  };
  const rows = (page: { data: unknown[]; total?: unknown }) =>
    `${page.data.length} rows${page.total === undefined ? '' : `, total ${JSON.stringify(page.total)}`}`;
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

  // Page 50: the cursor of page 49, found by paging once.
  let cursor: string | undefined;
  for (let page = 1; page < 50; page++) {
    const answer = await get(
      `/webhooks/deliveries?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    cursor = answer.nextCursor ?? cursor;
  }

  const mcp = new McpClient({ name: 'bench-log', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${target.baseUrl}/api/v1/mcp`), {
      requestInit: { headers: { 'x-api-key': target.apiKey } },
    }),
  );
  const host = new URL(target.rareUrl).host;
  const routes: [string, () => Promise<string>][] = [
    ['list, first page', async () => rows(await get('/webhooks/deliveries?limit=50'))],
    [
      'list, page 50',
      async () => rows(await get(`/webhooks/deliveries?limit=50&cursor=${encodeURIComponent(cursor ?? '')}`)),
    ],
    [
      "list, one day's window",
      async () =>
        rows(await get(`/webhooks/deliveries?limit=50&createdFrom=${day(15)}&createdTo=${day(14)}`)),
    ],
    [
      'Event Details',
      async () => {
        const details = await get(`/webhooks/${target.deliveryWebhookId}/deliveries/${target.deliveryId}`);
        return `${details.attemptHistory?.length ?? 0} sends in its history`;
      },
    ],
    ['status=failed, all webhooks', async () => rows(await get('/webhooks/deliveries?status=failed'))],
    ['state=retrying, all webhooks', async () => rows(await get('/webhooks/deliveries?state=retrying'))],
    [
      'status=failed, one webhook',
      async () => rows(await get(`/webhooks/${target.webhookId}/deliveries?status=failed`)),
    ],
    [
      'searchTerm, a URL with 3 old deliveries',
      async () => rows(await get(`/webhooks/deliveries?searchTerm=${encodeURIComponent(host)}`)),
    ],
    [
      'the same over MCP list_deliveries',
      async () => {
        const result = (await mcp.callTool({
          name: 'manage_webhooks',
          arguments: { action: 'list_deliveries', searchTerm: host },
        })) as { structuredContent?: { data: unknown[] } };
        return `${result.structuredContent?.data.length ?? 0} rows`;
      },
    ],
    [
      'searchTerm matching a third of the log',
      async () =>
        rows(
          await get(
            `/webhooks/deliveries?searchTerm=${encodeURIComponent(new URL(target.webhookUrl).pathname)}`,
          ),
        ),
    ],
    ...filterRoutes(target).map(([label, query]): [string, () => Promise<string>] => [
      label,
      async () => rows(await get(`/webhooks/deliveries?${query}`)),
    ]),
    ...(['24h', '7d', '30d'] as const).map((range): [string, () => Promise<string>] => [
      `stats ${range} (Dashboard chart)`,
      async () => `${JSON.stringify(await get(`/webhooks/deliveries/stats?range=${range}`)).length} bytes`,
    ]),
    ['GET /webhooks with health', async () => rows(await get('/webhooks'))],
    [
      "Dashboard's webhook health (web app)",
      async () => {
        const health = (await get('/webhooks/deliveries/health', 'session')) as unknown as {
          total: number;
          inTrouble: unknown[];
        };
        return `${health.total} webhooks judged, ${health.inTrouble.length} in trouble`;
      },
    ],
    [
      'Resend failed since 30 days, preview (web app)',
      async () => {
        const preview = (await get(
          `/webhooks/${target.webhookId}/resend-failed/preview?since=${encodeURIComponent(day(30))}`,
          'session',
        )) as unknown as { count: number; moreRemained: boolean };
        return `${preview.count}${preview.moreRemained ? '+' : ''} to resend`;
      },
    ],
  ];
  try {
    const timings: RouteTiming[] = [];
    for (const [route, call] of routes) timings.push(await measure(route, call));
    return timings;
  } finally {
    await mcp.close();
  }
}
