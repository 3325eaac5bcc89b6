import { isRetiredEvent } from '../shared/event-catalog';
import type { WebhookHealth, WebhookView } from './webhook-view';
import type { Webhook } from './webhook.entity';

/**
 * The view of a stored webhook. `recordOwnerName` is the record owner's display name (null without
 * an owner): deliveries are redacted with this person's access.
 */
export function webhookView(
  webhook: Webhook,
  recordOwnerName: string | null,
  health: WebhookHealth,
): WebhookView {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: webhook.events,
    legacyEvents: webhook.events.filter(isRetiredEvent),
    enabled: webhook.enabled,
    hasSecret: webhook.secretSealed !== null,
    headerNames: webhook.headerNames,
    bodyTemplate: webhook.bodyTemplate,
    recordTrigger: webhook.recordTrigger,
    recordSources: webhook.recordSources,
    recordOwnerUserId: webhook.recordOwnerUserId,
    recordOwnerName: webhook.recordOwnerUserId ? recordOwnerName : null,
    expectedSchemaRevision: webhook.schemaRevision,
    health,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}
