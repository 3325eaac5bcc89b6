import type { EntityManager } from 'typeorm';
import { windowHealth } from '../../shared/webhooks/webhook-health';
import type { EndpointStateView, WebhookHealth } from '../../webhooks/webhook-view';
import type { DeliveryStatus } from '../delivery.entity';
import { EndpointStatesRepository } from '../capacity/endpoint-states.repository';

interface CountRow {
  webhook_id: string;
  delivered_24h: number;
  failed_24h: number;
  in_flight_24h: number;
  delivered_7d: number;
  failed_7d: number;
  in_flight_7d: number;
}

const EMPTY = { delivered: 0, failed: 0, inFlight: 0 };

/**
 * The health of a page of webhooks in three queries whatever the page's size: the counts of the
 * last 7 days and each webhook's newest delivery (both served by the deliveries (webhook_id,
 * created_at) index), and each endpoint's stored state.
 */
export async function loadWebhookHealth(
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
): Promise<Map<string, WebhookHealth>> {
  if (webhookIds.length === 0) return new Map();
  const counts: CountRow[] = await manager.query(
    `SELECT webhook_id,
            count(*) FILTER (WHERE day AND status = 'delivered')::int AS delivered_24h,
            count(*) FILTER (WHERE day AND status = 'failed')::int AS failed_24h,
            count(*) FILTER (WHERE day AND status IN ('pending', 'sending'))::int AS in_flight_24h,
            count(*) FILTER (WHERE status = 'delivered')::int AS delivered_7d,
            count(*) FILTER (WHERE status = 'failed')::int AS failed_7d,
            count(*) FILTER (WHERE status IN ('pending', 'sending'))::int AS in_flight_7d
       FROM (SELECT webhook_id, status, created_at >= now() - interval '24 hours' AS day
               FROM deliveries
              WHERE workspace_id = $1 AND webhook_id = ANY($2::uuid[])
                AND created_at >= now() - interval '7 days') recent
      GROUP BY webhook_id`,
    [workspaceId, webhookIds],
  );
  const last: { id: string; status: DeliveryStatus | null; created_at: Date | null }[] = await manager.query(
    `SELECT w.id, newest.status, newest.created_at
       FROM unnest($2::uuid[]) AS w(id)
       LEFT JOIN LATERAL (
         SELECT status, created_at FROM deliveries d
          WHERE d.webhook_id = w.id AND d.workspace_id = $1
          ORDER BY created_at DESC, id DESC LIMIT 1
       ) newest ON true`,
    [workspaceId, webhookIds],
  );
  const endpoints = await endpointStates(manager, workspaceId, webhookIds);
  const byId = new Map(counts.map((row) => [row.webhook_id, row]));
  return new Map(
    last.map((row) => {
      const count = byId.get(row.id);
      return [
        row.id,
        {
          lastDelivery:
            row.status && row.created_at ? { status: row.status, at: row.created_at.toISOString() } : null,
          last24h: windowHealth(
            count
              ? { delivered: count.delivered_24h, failed: count.failed_24h, inFlight: count.in_flight_24h }
              : EMPTY,
          ),
          last7d: windowHealth(
            count
              ? { delivered: count.delivered_7d, failed: count.failed_7d, inFlight: count.in_flight_7d }
              : EMPTY,
          ),
          endpoint: endpoints.get(row.id) ?? null,
        },
      ];
    }),
  );
}

/** Each endpoint's state as the workers stored it; a webhook not attempted since they store it has none. */
async function endpointStates(
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
): Promise<Map<string, EndpointStateView>> {
  const stored = await new EndpointStatesRepository(manager).ofWebhooks(workspaceId, webhookIds);
  return new Map(
    [...stored].map(([id, { state, reason, since }]) => [id, { state, reason, since: since.toISOString() }]),
  );
}
