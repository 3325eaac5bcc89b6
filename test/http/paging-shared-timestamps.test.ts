import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Paging returns every row exactly once, whatever share a timestamp (issue 11, item 1): rows of one
 * dispatch batch, records and webhooks written in the same millisecond, with microseconds apart or
 * with the very same time. The rows are made here with SQL so their times are exactly that.
 */
describe('paging through rows that share a timestamp', () => {
  let app: TestApp;
  let key: string;
  let workspaceId: string;
  let dealTypeId: string;
  let webhookId: string;

  const api = async (path: string) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, { headers: { 'x-api-key': key } });
    return { status: response.status, body: (await response.json()) as any };
  };

  /** Every id of a list, page by page with `limit`, failing on a repeated id. */
  const pageThrough = async (path: string, limit: number) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const separator = path.includes('?') ? '&' : '?';
      const query = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { status, body } = await api(`${path}${separator}${query}`);
      expect(status).toBe(200);
      seen.push(...body.data.map((row: { id: string }) => row.id));
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    return seen;
  };

  // 13 times in one millisecond (microseconds apart) and 12 rows at one identical time.
  const times = [
    ...Array.from(
      { length: 13 },
      (_, i) => `2026-01-01T10:00:00.123${String(100 + i * 37).padStart(3, '0')}Z`,
    ),
    ...Array.from({ length: 12 }, () => '2026-01-01T10:00:00.124500Z'),
  ];

  beforeAll(async () => {
    app = await startTestApp();
    const { client, session } = await WebClient.signUp(app.baseUrl, { email: 'pager@example.com' });
    workspaceId = (session as { workspace: { id: string } }).workspace.id;
    key = (await client.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    const created = await client.ok('POST', '/app/api/webhooks', {
      url: 'https://receiver.example.com/hook',
      events: ['messaging.message.received'],
    });
    webhookId = created.id;
    dealTypeId = (
      await app.dataSource.query(`SELECT id FROM record_types WHERE workspace_id = $1 AND builtin = 'deal'`, [
        workspaceId,
      ])
    )[0].id;
    const [event] = await app.dataSource.query(
      `INSERT INTO record_events (id, workspace_id, event, cause_id, type_id, record_id, occurred_at, data)
       VALUES (gen_random_uuid(), $1, 'record.created', gen_random_uuid(), $2, gen_random_uuid(), now(), '{}'::jsonb) RETURNING id`,
      [workspaceId, dealTypeId],
    );
    for (const [index, time] of times.entries()) {
      await app.dataSource.query(
        `INSERT INTO webhooks (workspace_id, url, events, header_names, enabled, sources_version, created_at, updated_at)
         VALUES ($1, $2, '{messaging.message.received}', '{}', false, 1, $3, $3)`,
        [workspaceId, `https://receiver.example.com/${index}`, time],
      );
      await app.dataSource.query(
        `INSERT INTO records (workspace_id, type_id, version, values, status, created_at, updated_at)
         VALUES ($1, $2, 1, '{}'::jsonb, 'active', $3, $3)`,
        [workspaceId, dealTypeId, time],
      );
      await app.dataSource.query(
        `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, sources_version, status,
                                 workflow_started_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'record.created', 'https://receiver.example.com/hook', 'resend', 1, 'failed', now(), $4, $4)`,
        [workspaceId, webhookId, event.id, time],
      );
    }
  });
  afterAll(() => app.close());

  it.each([1, 2, 5, 7])('lists every delivery of one webhook exactly once with limit=%i', async (limit) => {
    const ids = await pageThrough(`/webhooks/${webhookId}/deliveries`, limit);
    expect(ids).toHaveLength(times.length);
    // The same order as one page holding them all: newest first, to the microsecond.
    expect(ids).toEqual(await pageThrough(`/webhooks/${webhookId}/deliveries`, 200));
    expect(await pageThrough('/webhooks/deliveries', limit)).toHaveLength(times.length);
  });

  it.each([1, 3, 6])('lists every webhook exactly once with limit=%i', async (limit) => {
    expect(await pageThrough('/webhooks', limit)).toHaveLength(times.length + 1);
  });

  it.each([1, 4, 9])('lists every record exactly once with limit=%i', async (limit) => {
    expect(await pageThrough('/records/deal', limit)).toHaveLength(times.length);
  });
});
