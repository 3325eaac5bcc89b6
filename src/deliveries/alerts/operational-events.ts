import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { OperationalEventName } from '../../shared/events/event-catalog';
import type { EndpointState } from '../../shared/deliveries/endpoint-state';
import type { Webhook } from '../../webhooks/webhooks.repository';
import { WebhooksRepository } from '../../webhooks/webhooks.repository';

/** The webhook an operational event is about, as its `data.webhook` names it. */
export const aboutWebhook = (webhook: Pick<Webhook, 'id' | 'url' | 'description'>) => ({
  id: webhook.id,
  url: webhook.url,
  description: webhook.description,
});

/** `data.endpoint`: the endpoint's state as the worker saw it. */
export const endpointData = (state: EndpointState) => ({
  state: state.state,
  reason: state.reason,
  since: new Date(state.since).toISOString(),
  failuresInARow: state.failuresInARow,
});

/**
 * Stores an operational event (docs/events.md#operational-events) in the events kept as sent,
 * for the dispatcher to deliver; only while another enabled webhook of the workspace subscribes to
 * it (the webhook it is about never receives it). True when stored.
 */
export async function storeOperationalEvent(
  manager: EntityManager,
  workspaceId: string,
  event: OperationalEventName,
  aboutWebhookId: string,
  data: Record<string, unknown>,
): Promise<boolean> {
  const subscribed = await new WebhooksRepository(manager).hasEnabledSubscriber(workspaceId, event, {
    except: aboutWebhookId,
  });
  if (!subscribed) return false;
  await manager.query(
    `INSERT INTO stored_events (id, workspace_id, kind, event, occurred_at, data)
     VALUES ($1, $2, 'operational', $3, now(), $4)`,
    [randomUUID(), workspaceId, event, JSON.stringify(data)],
  );
  return true;
}
