import type { DataSource, EntityManager } from 'typeorm';
import { entityFromRow } from '../../db/entity-from-row';
import { columnsOf, PreparedStatement } from '../../db/prepared';
import { Delivery } from './delivery.entity';

/** An endpoint with held deliveries: its workspace and stored state. */
export interface HeldEndpoint {
  webhook_id: string;
  workspace_id: string;
  state: string;
}

/**
 * The endpoints with held deliveries (not started, `waiting_since` set; docs/capacity.md), each
 * with its stored state, in the order of their ids.
 */
export async function heldEndpoints(manager: EntityManager): Promise<HeldEndpoint[]> {
  return (await HELD_ENDPOINTS.run(manager, [])) as unknown as HeldEndpoint[];
}

/** Per workspace with any: how many of its attempts wait in the slow lane now (started, still waiting). */
export async function queuedByWorkspace(manager: EntityManager): Promise<Map<string, number>> {
  const rows = await QUEUED_BY_WORKSPACE.run(manager, []);
  return new Map(rows.map((row) => [row.workspace_id as string, row.queued as number]));
}

/**
 * Claims up to `room` of an endpoint's oldest held deliveries for starting (another worker's pass
 * skips them); a healthy endpoint's no longer wait. The deliveries claimed.
 */
export async function claimHeld(
  manager: EntityManager,
  webhookId: string,
  room: number,
  healthy: boolean,
): Promise<Delivery[]> {
  const rows = await CLAIM.run(manager, [webhookId, room, healthy]);
  return rows.map((row) => entityFromRow(manager, Delivery, row));
}

/** An endpoint's held deliveries as its held-deliveries workflow shows them. */
export interface HeldSummary {
  /** How many are held, counted up to `countUpTo`. */
  count: number;
  /** The oldest, first to start: their ids and since when the oldest waits. */
  oldest: { id: string; waitingSince: Date }[];
}

/** How many of the endpoint's deliveries are held (up to `countUpTo`) and the oldest `shown` of them. */
export async function heldSummary(
  manager: EntityManager,
  webhookId: string,
  shown: number,
  countUpTo: number,
): Promise<HeldSummary> {
  const [counted] = await HELD_COUNT.run(manager, [webhookId, countUpTo]);
  const oldest = await HELD_OLDEST.run(manager, [webhookId, shown]);
  return {
    count: counted!.count as number,
    oldest: oldest.map((row) => ({ id: row.id as string, waitingSince: row.waiting_since as Date })),
  };
}

/** Where a delivery of this endpoint stands: held (and how many of its are ahead), or not. */
export async function heldPlace(
  manager: EntityManager,
  webhookId: string,
  deliveryId: string,
): Promise<{ status: string; held: boolean; ahead: number; waitingSince: Date | null } | null> {
  const [row] = await HELD_PLACE.run(manager, [webhookId, deliveryId]);
  if (!row) return null;
  return {
    status: row.status as string,
    held: row.held as boolean,
    ahead: row.ahead as number,
    waitingSince: (row.waiting_since as Date | null) ?? null,
  };
}

/** Claims one held delivery of the endpoint for starting now (an operator's release); none when not held. */
export async function claimHeldOne(
  manager: EntityManager,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery[]> {
  const rows = await CLAIM_ONE.run(manager, [webhookId, deliveryId]);
  return rows.map((row) => entityFromRow(manager, Delivery, row));
}

/** Claimed deliveries whose start failed are held again, for the next pass. */
export async function unclaimHeld(manager: EntityManager, deliveryIds: string[]): Promise<void> {
  await UNCLAIM.run(manager, [deliveryIds]);
}

/** Per webhook with waiting deliveries: how many are held (not started) and queued in the slow lane. */
export async function waitingByWebhook(
  dataSource: DataSource,
): Promise<{ workspace_id: string; webhook_id: string; held: number; queued: number }[]> {
  return dataSource.query(WAITING);
}

// The endpoints with held deliveries, found by skipping through deliveries_held_idx one endpoint at
// a time (a loose index scan: as many steps as endpoints, not as held rows), each with its state.
const HELD_ENDPOINTS = new PreparedStatement(
  `WITH RECURSIVE held(webhook_id) AS (
     (SELECT webhook_id FROM deliveries
       WHERE waiting_since IS NOT NULL AND workflow_started_at IS NULL ORDER BY webhook_id LIMIT 1)
     UNION ALL
     SELECT (SELECT d.webhook_id FROM deliveries d
              WHERE d.waiting_since IS NOT NULL AND d.workflow_started_at IS NULL AND d.webhook_id > held.webhook_id
              ORDER BY d.webhook_id LIMIT 1)
       FROM held WHERE held.webhook_id IS NOT NULL
   )
   SELECT held.webhook_id, coalesce(s.state, 'healthy') AS state,
          (SELECT d.workspace_id FROM deliveries d WHERE d.webhook_id = held.webhook_id
            AND d.waiting_since IS NOT NULL AND d.workflow_started_at IS NULL LIMIT 1) AS workspace_id
     FROM held LEFT JOIN endpoint_states s ON s.webhook_id = held.webhook_id
    WHERE held.webhook_id IS NOT NULL`,
);

// The attempts waiting in the slow lane, per workspace: the rows of the partial index
// deliveries_queued_idx, as few as the release lets wait (and retries that wait their turn).
const QUEUED_BY_WORKSPACE = new PreparedStatement(
  `SELECT workspace_id, count(*)::int AS queued FROM deliveries
    WHERE waiting_since IS NOT NULL AND workflow_started_at IS NOT NULL GROUP BY workspace_id`,
);

// Claims an endpoint's oldest held deliveries for starting (another worker's pass skips them); a
// healthy endpoint's no longer wait.
const CLAIM = new PreparedStatement(
  (manager) =>
    `UPDATE deliveries
        SET workflow_started_at = now(), waiting_since = CASE WHEN $3::boolean THEN NULL ELSE waiting_since END
      WHERE id IN (SELECT id FROM deliveries
                    WHERE webhook_id = $1::uuid AND waiting_since IS NOT NULL AND workflow_started_at IS NULL
                    ORDER BY created_at LIMIT $2::integer FOR UPDATE SKIP LOCKED)
      RETURNING ${columnsOf(manager, Delivery, 'deliveries')}`,
);

// Through deliveries_held_idx (webhook_id, created_at) WHERE held: a bounded count, the oldest first.
const HELD_COUNT = new PreparedStatement(
  `SELECT count(*)::int AS count FROM (SELECT 1 FROM deliveries
     WHERE webhook_id = $1::uuid AND waiting_since IS NOT NULL AND workflow_started_at IS NULL
     LIMIT $2::integer) held`,
);
const HELD_OLDEST = new PreparedStatement(
  `SELECT id, waiting_since FROM deliveries
    WHERE webhook_id = $1::uuid AND waiting_since IS NOT NULL AND workflow_started_at IS NULL
    ORDER BY created_at LIMIT $2::integer`,
);
const HELD_PLACE = new PreparedStatement(
  `SELECT d.status, d.waiting_since,
          (d.waiting_since IS NOT NULL AND d.workflow_started_at IS NULL) AS held,
          (SELECT count(*)::int FROM deliveries h
            WHERE h.webhook_id = d.webhook_id AND h.waiting_since IS NOT NULL AND h.workflow_started_at IS NULL
              AND h.created_at < d.created_at) AS ahead
     FROM deliveries d WHERE d.id = $2::uuid AND d.webhook_id = $1::uuid`,
);
const CLAIM_ONE = new PreparedStatement(
  (manager) =>
    `UPDATE deliveries SET workflow_started_at = now(), waiting_since = NULL
      WHERE id = $2::uuid AND webhook_id = $1::uuid AND waiting_since IS NOT NULL AND workflow_started_at IS NULL
      RETURNING ${columnsOf(manager, Delivery, 'deliveries')}`,
);

const UNCLAIM = new PreparedStatement(
  `UPDATE deliveries SET workflow_started_at = NULL, waiting_since = coalesce(waiting_since, now())
    WHERE id = ANY($1::uuid[])`,
);

// Served by the partial indexes deliveries_held_idx and deliveries_queued_idx (only waiting rows).
const WAITING = `
  SELECT w.workspace_id, w.id AS webhook_id, coalesce(h.n, 0)::int AS held, coalesce(q.n, 0)::int AS queued
    FROM (SELECT webhook_id, count(*) AS n FROM deliveries
           WHERE waiting_since IS NOT NULL AND workflow_started_at IS NULL GROUP BY webhook_id) h
    FULL JOIN (SELECT webhook_id, count(*) AS n FROM deliveries
                WHERE waiting_since IS NOT NULL AND workflow_started_at IS NOT NULL GROUP BY webhook_id) q
      ON q.webhook_id = h.webhook_id
    JOIN webhooks w ON w.id = coalesce(h.webhook_id, q.webhook_id)`;
