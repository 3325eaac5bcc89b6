import type { DataSource, EntityManager } from 'typeorm';
import type { OutcomeCounts } from '../../shared/webhooks/webhook-health';

/**
 * The deliveries counted per workspace, webhook, UTC hour of creation and state (migration
 * 1764666000000-delivery-counts.ts): `delivery_counts` holds what was folded, and
 * `delivery_count_changes` what triggers appended since. Reads add both, so a count is exact the
 * moment its delivery's transaction commits, and costs rows per hour rather than per delivery.
 */

/** The webhook_id of a workspace's rows summed over all its webhooks (the nil UUID: never a webhook's). */
export const ALL_WEBHOOKS = '00000000-0000-0000-0000-000000000000';

/**
 * The states a delivery is counted under: its status, with Failed split by whether a retry is
 * scheduled, and Sending counted as Pending (both in flight; migration 1764730800001).
 */
export type CountedState = 'pending' | 'delivered' | 'failed' | 'retrying';

/**
 * The states each outcome sums: `failed` is failed for good, `retrying` (Failed by the spec's
 * status, a next attempt to come) is counted apart.
 */
const OUTCOME_STATES: Readonly<Record<keyof OutcomeCounts, readonly CountedState[]>> = {
  delivered: ['delivered'],
  failed: ['failed'],
  retrying: ['retrying'],
  inFlight: ['pending'],
};

/** A sum per outcome, named `<prefix><outcome>`, of the rows that also meet `condition`. */
const outcomeColumns = (prefix = '', condition = 'true') =>
  Object.entries(OUTCOME_STATES)
    .map(
      ([outcome, states]) =>
        `coalesce(sum(n) FILTER (WHERE ${condition} AND state IN (${states.map((state) => `'${state}'`).join(', ')})), 0)::int AS "${prefix}${outcome}"`,
    )
    .join(', ');

/** Every bucket of `unit` between from (inclusive) and to (exclusive), for one webhook or all. */
export async function countsByBucket(
  manager: EntityManager,
  workspaceId: string,
  window: { from: Date; to: Date; unit: 'hour' | 'day' },
  webhookId: string | null,
): Promise<(OutcomeCounts & { start: Date })[]> {
  // Changes not folded yet carry real webhook ids only: for the workspace they are summed here.
  const changesOf = webhookId ? 'AND webhook_id = $4' : '';
  return manager.query(
    `SELECT date_trunc($5, hour, 'UTC') AS start, ${outcomeColumns()}
       FROM (SELECT hour, state, n FROM delivery_counts
              WHERE workspace_id = $1 AND webhook_id = $4 AND hour >= $2 AND hour < $3
             UNION ALL
             SELECT hour, state, n FROM delivery_count_changes
              WHERE workspace_id = $1 AND hour >= $2 AND hour < $3 ${changesOf}) counted
      GROUP BY 1`,
    [workspaceId, window.from, window.to, webhookId ?? ALL_WEBHOOKS, window.unit],
  );
}

/** Per webhook, the counts of the hours from `since` on. */
export async function countsByWebhook(
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
  windows: { recent: Date; since: Date },
): Promise<Map<string, { recent: OutcomeCounts; all: OutcomeCounts }>> {
  const rows: (Record<string, number> & { webhook_id: string })[] = await manager.query(
    `SELECT webhook_id, ${outcomeColumns()}, ${outcomeColumns('recent_', 'hour >= $4')}
       FROM (SELECT webhook_id, hour, state, n FROM delivery_counts
              WHERE workspace_id = $1 AND webhook_id = ANY($2::uuid[]) AND hour >= $3
             UNION ALL
             SELECT webhook_id, hour, state, n FROM delivery_count_changes
              WHERE workspace_id = $1 AND webhook_id = ANY($2::uuid[]) AND hour >= $3) counted
      GROUP BY webhook_id`,
    [workspaceId, webhookIds, windows.since, windows.recent],
  );
  const pick = (row: Record<string, number>, prefix: string): OutcomeCounts => ({
    delivered: row[`${prefix}delivered`] ?? 0,
    failed: row[`${prefix}failed`] ?? 0,
    retrying: row[`${prefix}retrying`] ?? 0,
    inFlight: row[`${prefix}inFlight`] ?? 0,
  });
  return new Map(rows.map((row) => [row.webhook_id, { recent: pick(row, 'recent_'), all: pick(row, '') }]));
}

/**
 * The webhooks with a delivery failed for good or retrying in the hours from `since` on: the ones
 * the health rule may call failing or degraded by their counts (health-verdict.ts). Reads the
 * workspace's rows of those hours in those two states only (the counts' (workspace_id, webhook_id,
 * hour, state) key), never a delivery; deleted webhooks' counts are left to the caller to drop.
 */
export async function webhooksWithFailures(
  manager: EntityManager,
  workspaceId: string,
  since: Date,
): Promise<string[]> {
  const rows: { webhook_id: string }[] = await manager.query(
    `SELECT webhook_id
       FROM (SELECT webhook_id, n FROM delivery_counts
              WHERE workspace_id = $1 AND webhook_id <> $3 AND hour >= $2 AND state IN ('failed', 'retrying')
             UNION ALL
             SELECT webhook_id, n FROM delivery_count_changes
              WHERE workspace_id = $1 AND hour >= $2 AND state IN ('failed', 'retrying')) counted
      GROUP BY webhook_id
     HAVING sum(n) > 0`,
    [workspaceId, since, ALL_WEBHOOKS],
  );
  return rows.map((row) => row.webhook_id);
}

/**
 * Moves the appended changes into the counts, per webhook and summed per workspace, in one
 * transaction; one process at a time (the others skip). Changes of a workspace deleted meanwhile
 * are dropped with it. Returns how many changes it folded.
 */
export async function foldDeliveryCounts(dataSource: DataSource): Promise<number> {
  return dataSource.transaction(async (manager) => {
    const [{ locked }] = (await manager.query(
      `SELECT pg_try_advisory_xact_lock(hashtext('delivery_counts_fold')) AS locked`,
    )) as [{ locked: boolean }];
    if (!locked) return 0;
    const [{ folded }] = (await manager.query(
      `WITH moved AS (
         DELETE FROM delivery_count_changes RETURNING workspace_id, webhook_id, hour, state, n
       ), summed AS (
         SELECT workspace_id, webhook_id, hour, state, sum(n) AS n FROM moved GROUP BY 1, 2, 3, 4
         UNION ALL
         SELECT workspace_id, $1::uuid, hour, state, sum(n) FROM moved GROUP BY 1, 3, 4
       ), folded AS (
         INSERT INTO delivery_counts (workspace_id, webhook_id, hour, state, n)
         SELECT workspace_id, webhook_id, hour, state, n FROM summed
          WHERE n <> 0 AND EXISTS (SELECT 1 FROM workspaces w WHERE w.id = summed.workspace_id)
         ON CONFLICT (workspace_id, webhook_id, hour, state) DO UPDATE SET n = delivery_counts.n + EXCLUDED.n
       )
       SELECT count(*)::int AS folded FROM moved`,
      [ALL_WEBHOOKS],
    )) as [{ folded: number }];
    return folded;
  });
}
