import type { EntityManager } from 'typeorm';
import { deliveryState } from '../../shared/deliveries/delivery-state';
import { healthWindows, windowHealth } from '../../shared/webhooks/webhook-health';
import type { EndpointStateView, WebhookHealth } from '../../webhooks/webhook-view';
import { countsByWebhook, DeliveriesRepository, EndpointStatesRepository } from '../store';

const EMPTY = { delivered: 0, failed: 0, retrying: 0, inFlight: 0 };

/**
 * The health of a page of webhooks in three queries whatever the page's size or the log's: the
 * counts of the last 24 hours and 7 days (kept as deliveries change, store/delivery-counts.repository.ts), each
 * webhook's newest delivery (the deliveries (webhook_id, created_at) index), and each endpoint's
 * stored state.
 */
export async function loadWebhookHealth(
  manager: EntityManager,
  workspaceId: string,
  webhookIds: readonly string[],
  now = new Date(),
): Promise<Map<string, WebhookHealth>> {
  if (webhookIds.length === 0) return new Map();
  const counts = await countsByWebhook(manager, workspaceId, webhookIds, healthWindows(now));
  const last = await new DeliveriesRepository(manager).newestOfWebhooks(workspaceId, webhookIds);
  const endpoints = await endpointStates(manager, workspaceId, webhookIds);
  return new Map(
    last.map((row) => {
      const count = counts.get(row.id);
      return [
        row.id,
        {
          lastDelivery:
            row.status && row.created_at
              ? {
                  status: row.status,
                  state: deliveryState({ status: row.status, nextAttemptAt: row.next_attempt_at }),
                  at: row.created_at.toISOString(),
                }
              : null,
          last24h: windowHealth(count?.recent ?? EMPTY),
          last7d: windowHealth(count?.all ?? EMPTY),
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
