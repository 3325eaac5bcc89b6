import { ALL_WEBHOOKS } from './delivery-counts.repository';

/** A count kept that differs from a recount of the deliveries: the key, and both numbers. */
export interface CountDrift {
  webhookId: string;
  hour: Date;
  state: string;
  kept: number;
  recounted: number;
}

/**
 * Compares the counts kept for a workspace (per webhook and summed over its webhooks) with a
 * recount of its deliveries; empty when they agree. Reads every delivery of the workspace: for
 * tests, the fault run and an operator's check, never a request.
 */
export async function countDrift(
  query: (sql: string, parameters: unknown[]) => Promise<CountDrift[]>,
  workspaceId: string,
): Promise<CountDrift[]> {
  return query(
    `WITH recounted AS (
       SELECT webhook_id, date_trunc('hour', created_at, 'UTC') AS hour,
              delivery_count_state(status, next_attempt_at) AS state, count(*)::bigint AS n
         FROM deliveries WHERE workspace_id = $1 GROUP BY 1, 2, 3
       UNION ALL
       SELECT $2::uuid, date_trunc('hour', created_at, 'UTC'), delivery_count_state(status, next_attempt_at), count(*)
         FROM deliveries WHERE workspace_id = $1 GROUP BY 2, 3
     ), kept AS (
       SELECT webhook_id, hour, state, sum(n)::bigint AS n FROM (
         SELECT webhook_id, hour, state, n FROM delivery_counts WHERE workspace_id = $1
         UNION ALL
         SELECT webhook_id, hour, state, n FROM delivery_count_changes WHERE workspace_id = $1
         UNION ALL
         SELECT $2::uuid, hour, state, n FROM delivery_count_changes WHERE workspace_id = $1
       ) each GROUP BY 1, 2, 3
     )
     SELECT coalesce(k.webhook_id, r.webhook_id) AS "webhookId", coalesce(k.hour, r.hour) AS hour,
            coalesce(k.state, r.state) AS state, coalesce(k.n, 0)::int AS kept, coalesce(r.n, 0)::int AS recounted
       FROM kept k FULL JOIN recounted r USING (webhook_id, hour, state)
      WHERE coalesce(k.n, 0) <> coalesce(r.n, 0)
      ORDER BY 1, 2, 3`,
    [workspaceId, ALL_WEBHOOKS],
  );
}
