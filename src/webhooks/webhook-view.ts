import { isRetiredEvent } from '../shared/event-catalog';
import type { RecordSource, RecordTrigger } from './record-sources';
import type { Webhook } from './webhook.entity';

/** A webhook as REST, MCP and the web app return it: never its secret or header values. */
export interface WebhookView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  /** The retired type-specific events among `events` (older webhooks only): shown as (legacy). */
  legacyEvents: string[];
  enabled: boolean;
  hasSecret: boolean;
  headerNames: string[];
  bodyTemplate: string | null;
  recordTrigger: RecordTrigger | null;
  recordSources: RecordSource[] | null;
  recordOwnerUserId: string | null;
  /**
   * The record owner's display name (null without an owner): deliveries are redacted with this
   * person's access, and only they or an administrator can change where or how the webhook sends.
   */
  recordOwnerName: string | null;
  /** The schema revision the record settings were checked against (null without record settings). */
  expectedSchemaRevision: number | null;
  createdAt: string;
  updatedAt: string;
}

export function webhookView(webhook: Webhook, recordOwnerName: string | null): WebhookView {
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
    createdAt: webhook.createdAt.toISOString(),
    updatedAt: webhook.updatedAt.toISOString(),
  };
}
