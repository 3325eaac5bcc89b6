// What the fault run checks, read from the outside only: the database (deliveries and their
// attempt rows), what the receiver got, and the REST lists paged with a small limit.
import { Client } from 'pg';
import { built } from './components';
import type { FaultReceiver } from './receiver';
import type { FaultWrite } from './writer';

export interface DbState {
  records: number;
  deliveries: number;
  delivered: number;
  failed: number;
  /** Rows not final: pending, sending, or failed with a next attempt still planned. */
  notFinal: number;
  /** delivery id → attempt rows recorded for it. */
  attemptsByDelivery: Map<string, number>;
  /** Attempt rows by outcome, as the attempt history shows them (e.g. `delivered 598, unknown 2`). */
  attemptOutcomes: string;
  /** `webhookId recordId` → the id of the delivery of that record's event to that webhook. */
  deliveryOf: Map<string, string>;
}

// Final = delivered, or failed with no attempt planned (a failure still retrying keeps a next
// attempt time, whatever the status column says about it).
const FINAL = `(status = 'delivered' OR (status = 'failed' AND next_attempt_at IS NULL))`;

/** The workspace's records, deliveries and attempt rows, as they are now. */
export async function readDb(databaseUrl: string, workspaceId: string): Promise<DbState> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const [records] = (
      await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM records WHERE workspace_id = $1`, [
        workspaceId,
      ])
    ).rows;
    const rows = (
      await client.query<{
        id: string;
        webhook_id: string;
        record_id: string | null;
        status: string;
        final: boolean;
      }>(
        `SELECT id, webhook_id, element->>'recordId' AS record_id, status, ${FINAL} AS final
           FROM deliveries WHERE workspace_id = $1`,
        [workspaceId],
      )
    ).rows;
    const attempts = (
      await client.query<{ delivery_id: string; n: number }>(
        `SELECT a.delivery_id, count(*)::int AS n FROM delivery_attempts a
           JOIN deliveries d ON d.id = a.delivery_id WHERE d.workspace_id = $1 GROUP BY a.delivery_id`,
        [workspaceId],
      )
    ).rows;
    const outcomes = (
      await client.query<{ outcome: string; n: number }>(
        `SELECT a.outcome, count(*)::int AS n FROM delivery_attempts a
           JOIN deliveries d ON d.id = a.delivery_id WHERE d.workspace_id = $1
          GROUP BY a.outcome ORDER BY n DESC`,
        [workspaceId],
      )
    ).rows;
    const deliveryOf = new Map<string, string>();
    for (const row of rows) if (row.record_id) deliveryOf.set(`${row.webhook_id} ${row.record_id}`, row.id);
    return {
      records: records?.n ?? 0,
      deliveries: rows.length,
      delivered: rows.filter((row) => row.status === 'delivered').length,
      failed: rows.filter((row) => row.status === 'failed' && row.final).length,
      notFinal: rows.filter((row) => !row.final).length,
      attemptsByDelivery: new Map(attempts.map((row) => [row.delivery_id, row.n])),
      attemptOutcomes: outcomes.map((row) => `${row.outcome} ${row.n}`).join(', '),
      deliveryOf,
    };
  } finally {
    await client.end();
  }
}

/** Acknowledged writes whose event did not reach every subscribed webhook (by delivery id). */
export function missing(
  writes: FaultWrite[],
  receiver: FaultReceiver,
  db: DbState,
  webhookIds: string[],
): number {
  let count = 0;
  for (const write of writes) {
    if (!write.recordId) continue;
    const received = webhookIds.every((webhookId) => {
      const deliveryId = db.deliveryOf.get(`${webhookId} ${write.recordId}`);
      return deliveryId !== undefined && receiver.postsByDelivery.has(deliveryId);
    });
    if (!received) count++;
  }
  return count;
}

export interface DuplicateCounts {
  /** POSTs beyond the first, per delivery id. */
  received: number;
  /** POSTs beyond the attempt rows recorded for their delivery: requests the log does not show. */
  invisible: number;
  /** Delivery ids with an invisible POST (a few named in the report). */
  invisibleIds: string[];
}

export function duplicates(receiver: FaultReceiver, db: DbState): DuplicateCounts {
  const counts: DuplicateCounts = { received: 0, invisible: 0, invisibleIds: [] };
  for (const [deliveryId, posts] of receiver.postsByDelivery) {
    counts.received += posts - 1;
    const excess = posts - (db.attemptsByDelivery.get(deliveryId) ?? 0);
    if (excess > 0) {
      counts.invisible += excess;
      counts.invisibleIds.push(deliveryId);
    }
  }
  return counts;
}

export interface PagingResult {
  list: string;
  expected: number;
  /** Distinct ids listed that the database has. */
  reached: number;
  /** Ids listed more than once. */
  repeated: number;
  /** Ids listed that the database does not have (should never happen). */
  unknown: number;
  pages: number;
  ok: boolean;
}

/** Pages `path` with `limit` until nextCursor is null (bounded), against the ids the database has. */
export async function pageThrough(options: {
  baseUrl: string;
  apiKey: string;
  list: string;
  path: string;
  limit: number;
  expectedIds: Set<string>;
}): Promise<PagingResult> {
  const seen = new Map<string, number>();
  const maxPages = Math.ceil(options.expectedIds.size / options.limit) * 2 + 10;
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = new URL(`${options.baseUrl}${options.path}`);
    url.searchParams.set('limit', String(options.limit));
    if (cursor) url.searchParams.set('cursor', cursor);
    const response = await fetch(url, {
      headers: { 'x-api-key': options.apiKey },
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`${options.list}: GET ${url.pathname} answered ${response.status}`);
    const body = (await response.json()) as { data: { id: string }[]; nextCursor: string | null };
    for (const row of body.data) seen.set(row.id, (seen.get(row.id) ?? 0) + 1);
    cursor = body.nextCursor;
    pages++;
  } while (cursor && pages < maxPages);
  let reached = 0;
  let repeated = 0;
  let unknown = 0;
  for (const [id, times] of seen) {
    if (options.expectedIds.has(id)) reached++;
    else unknown++;
    if (times > 1) repeated += times - 1;
  }
  const expected = options.expectedIds.size;
  return {
    list: options.list,
    expected,
    reached,
    repeated,
    unknown,
    pages,
    ok: reached === expected && repeated === 0 && unknown === 0 && !cursor,
  };
}

/** The ids each paged list must return, from the database. */
export async function listIds(
  databaseUrl: string,
  workspaceId: string,
  webhookId: string,
  typeId: string,
): Promise<{
  webhookDeliveries: Set<string>;
  allDeliveries: Set<string>;
  records: Set<string>;
  webhooks: Set<string>;
}> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const ids = async (sql: string, params: unknown[]) =>
      new Set((await client.query<{ id: string }>(sql, params)).rows.map((row) => row.id));
    return {
      webhookDeliveries: await ids(`SELECT id FROM deliveries WHERE webhook_id = $1`, [webhookId]),
      allDeliveries: await ids(`SELECT id FROM deliveries WHERE workspace_id = $1`, [workspaceId]),
      records: await ids(
        `SELECT id FROM records WHERE workspace_id = $1 AND type_id = $2 AND status = 'active'`,
        [workspaceId, typeId],
      ),
      webhooks: await ids(`SELECT id FROM webhooks WHERE workspace_id = $1`, [workspaceId]),
    };
  } finally {
    await client.end();
  }
}

interface DeliveryCountsModule {
  countDrift(
    query: (sql: string, parameters: unknown[]) => Promise<unknown[]>,
    workspaceId: string,
  ): Promise<unknown[]>;
}

/**
 * How many of the workspace's kept delivery counts (the chart's and the health column's) differ
 * from a recount of its deliveries, with the service's own comparison (dist/src/deliveries/store).
 */
export async function countsDrift(
  projectRoot: string,
  databaseUrl: string,
  workspaceId: string,
): Promise<number> {
  const { countDrift } = built<DeliveryCountsModule>(
    projectRoot,
    'deliveries/store/delivery-recount.repository.js',
  );
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const drifted = await countDrift(
      async (sql, parameters) => (await client.query(sql, parameters)).rows,
      workspaceId,
    );
    return drifted.length;
  } finally {
    await client.end();
  }
}

/** Deliveries held in the database right now: not started, waiting for their endpoint (-1 when unreadable). */
export async function heldNow(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ held: number }>(
      `SELECT count(*)::int AS held FROM deliveries WHERE waiting_since IS NOT NULL AND workflow_started_at IS NULL`,
    );
    return rows[0]!.held;
  } catch {
    return -1;
  } finally {
    await client.end().catch(() => undefined);
  }
}
