import { isRetiredEvent } from '../shared/events/event-catalog';
import { maskRecordSettings, type FieldReadable } from '../shared/webhooks/record-source-mask.rules';
import type { WebhookHealth, WebhookView } from './webhook-view';
import type { Webhook } from './webhook.entity';
import { previousSecretSigns } from './signing/secret-rotation';
import { textValuesOf } from './write/webhook-text-fields';

/**
 * The view of a stored webhook for one reader. `recordOwnerName` is the record owner's display
 * name (null without an owner): deliveries are redacted with this person's access. `readable` is
 * the reader's field access: filter values and watched fields they cannot read read as masked.
 */
export function webhookView(
  webhook: Webhook,
  recordOwnerName: string | null,
  health: WebhookHealth,
  readable: FieldReadable,
  now = new Date(),
): WebhookView {
  const { recordTrigger, recordSources } = maskRecordSettings(webhook, readable);
  return {
    id: webhook.id,
    url: webhook.url,
    ...textValuesOf(webhook),
    events: webhook.events,
    legacyEvents: webhook.events.filter(isRetiredEvent),
    operationalEvents: webhook.operationalEvents,
    enabled: webhook.enabled,
    disabledReason: webhook.disabledReason,
    disabledAt: webhook.disabledAt?.toISOString() ?? null,
    standardWebhooks: webhook.standardWebhooks,
    rateLimit: webhook.rateLimit,
    hasSecret: webhook.secretSealed !== null,
    // Past its grace a previous secret signs nothing, whether or not the sweep has dropped it yet.
    previousSecretExpiresAt: previousSecretSigns(webhook.previousSecretExpiresAt, now)
      ? webhook.previousSecretExpiresAt.toISOString()
      : null,
    headerNames: webhook.headerNames,
    bodyTemplate: webhook.bodyTemplate,
    recordTrigger,
    recordSources,
    recordOwnerUserId: webhook.recordOwnerUserId,
    recordOwnerName: webhook.recordOwnerUserId ? recordOwnerName : null,
    expectedSchemaRevision: webhook.schemaRevision,
    health,
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}
