import { z } from 'zod';
import { listAllDeliveriesQuery } from '../../deliveries/log/delivery-query';
import { WEBHOOK_EVENTS } from '../../shared/event-catalog';
import { MASKED_VALUE } from '../../shared/webhooks/record-source-mask.rules';
import { BODY_TEMPLATE_MAX, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_MAX } from '../../shared/limits';
import {
  RESERVED_HEADER_NAMES,
  WEBHOOK_HEADER_NAME_MAX,
  WEBHOOK_HEADER_VALUE_MAX,
  WEBHOOK_HEADERS_MAX_COUNT,
  WEBHOOK_HEADERS_TOTAL_MAX,
} from '../../shared/webhooks/webhook-headers';
import { listWebhooksQuery, webhookFields } from '../../webhooks/webhooks.schemas';

/**
 * The MCP inputs of the webhook actions: the REST request schemas (one validation layer), each
 * described for an assistant. Rules that the REST schemas check with a refinement or that the
 * service checks (events, sizes, headers) are also advertised here, from the same constants and
 * catalog, so the JSON Schema a client sees states the limits the call is held to.
 */

const RECORD_IDS_FROM_MODEL =
  'Use the stable ids from get_record_model (call it with the type name, e.g. "Contact"): typeId is the type id, ' +
  'fieldId and changedFieldIds are field ids; names are not accepted here. A filter value or a changed field on ' +
  `a field you cannot read reads as ${MASKED_VALUE} in answers: send it back as read to keep the saved one.`;

/** Every webhook field (a new one is listed at once; the tools/list test asks for its description). */
export const webhookInputs = {
  ...webhookFields,
  url: webhookFields.url.describe(
    'The receiver URL, http:// or https:// (no user name or password). Without a scheme https:// is added. ' +
      'With custom headers it must be https://, or http:// on localhost, 127.0.0.1 or ::1.',
  ),
  description: webhookFields.description.meta({
    maxLength: WEBHOOK_DESCRIPTION_MAX,
    description: `A note for people, up to ${WEBHOOK_DESCRIPTION_MAX} characters; null clears it.`,
  }),
  events: webhookFields.events.meta({
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    minItems: 1,
    description:
      'The events to receive, one or more, by name. record.* events are record changes (narrowed by recordTrigger ' +
      'or recordSources); messaging.* events come from connected messaging accounts.',
  }),
  secret: webhookFields.secret.meta({
    minLength: 1,
    maxLength: WEBHOOK_SECRET_MAX,
    description:
      `Signs every delivery (X-Webhook-Signature), 1 to ${WEBHOOK_SECRET_MAX} characters. Never returned: hasSecret ` +
      'says whether one is set. null removes it.',
  }),
  headers: webhookFields.headers.describe(
    `Custom request headers, name to value: at most ${WEBHOOK_HEADERS_MAX_COUNT}, names are HTTP tokens up to ` +
      `${WEBHOOK_HEADER_NAME_MAX} characters, values Latin-1 without line breaks up to ${WEBHOOK_HEADER_VALUE_MAX}, ` +
      `${WEBHOOK_HEADERS_TOTAL_MAX} characters in all. Reserved names: ${RESERVED_HEADER_NAMES.join(', ')}. ` +
      'Values are never returned (headerNames lists the names). On update, omitted keeps them; null clears them.',
  ),
  bodyTemplate: webhookFields.bodyTemplate.describe(
    `A JSON object document (up to ${BODY_TEMPLATE_MAX} characters) sent instead of the standard envelope. ` +
      'Placeholders inside JSON strings: {{event}}, {{id}}, {{timestamp}}, {{companyId}}, {{actorId}}, and paths ' +
      'under {{data}} such as {{data.record.ref.recordId}}. null removes it.',
  ),
  enabled: webhookFields.enabled.describe(
    'false: the webhook receives nothing and keeps its settings. Default true.',
  ),
  expectedSchemaRevision: webhookFields.expectedSchemaRevision.describe(
    'The schemaRevision returned by get_record_model. Required with record events, and on update when ' +
      'recordTrigger, recordSources or recordOwnerUserId change; a stale revision is refused (read the model again).',
  ),
  recordTrigger: webhookFields.recordTrigger.describe(
    'Which records send record events: { query: { typeId, search?, filters?: [{ fieldId, op, value? }] }, ' +
      `changedFieldIds? } (record.updated only when one of those fields changed). ${RECORD_IDS_FROM_MODEL} ` +
      'null: every type the record owner can read. Not together with recordSources.',
  ),
  recordSources: webhookFields.recordSources.describe(
    'Several record sources (up to 50), each { query, changedFieldIds?, events? } as in recordTrigger, with its own ' +
      `record events. ${RECORD_IDS_FROM_MODEL} null clears them. Not together with recordTrigger.`,
  ),
  recordOwnerUserId: webhookFields.recordOwnerUserId.describe(
    'The member whose record access redacts the deliveries. Default: you. Only an administrator can choose another member.',
  ),
};

export const webhookId = z.uuid().describe('The webhook id (from create or list).');
export const deliveryId = z.uuid().describe('The delivery id (from list_deliveries).');

const limit = <Limit extends z.ZodType>(schema: Limit) =>
  schema.describe('Page size, 1 to 200 (default 50).');
const cursor = <Cursor extends z.ZodType>(schema: Cursor) =>
  schema.describe('The nextCursor of the previous page, to read the next one.');
const from = 'ISO 8601 date or date-time; a date starts at 00:00 UTC.';
const to = 'ISO 8601 date or date-time; a date covers its whole day (UTC).';

const webhookList = listWebhooksQuery.shape;
export const listWebhooksInput = z.strictObject({
  search: webhookList.search.describe('Only webhooks whose URL contains this text (case-insensitive).'),
  createdFrom: webhookList.createdFrom.describe(`Created at or after. ${from}`),
  createdTo: webhookList.createdTo.describe(`Created at or before. ${to}`),
  updatedFrom: webhookList.updatedFrom.describe(`Updated at or after. ${from}`),
  updatedTo: webhookList.updatedTo.describe(`Updated at or before. ${to}`),
  limit: limit(webhookList.limit),
  cursor: cursor(webhookList.cursor),
});

const deliveryList = listAllDeliveriesQuery.shape;
/**
 * `id` and `deliveryUrl` keep the names manage_webhooks has always taken for the REST `webhookId` and `url`;
 * `deliveryIdPrefix` is the REST `idPrefix` (beside `id`, the webhook's, it says whose id it is).
 */
export const listDeliveriesInput = z.strictObject({
  id: deliveryList.webhookId.describe('Only the deliveries of this webhook (its id); also of a deleted one.'),
  searchTerm: deliveryList.searchTerm.describe('Text in the URL or the event name (case-insensitive).'),
  status: deliveryList.status.describe(
    'Only this status: pending (waiting for an attempt), sending, delivered, failed (its last attempt failed; ' +
      'includes the retrying ones, whose next attempt is scheduled).',
  ),
  state: deliveryList.state.describe(
    'Only this state: retrying (failed, next attempt scheduled at nextAttemptAt), failed (failed for good, no ' +
      'attempt follows), or pending, sending, delivered.',
  ),
  event: deliveryList.event.describe('Only this event name, exactly (e.g. record.updated).'),
  deliveryUrl: deliveryList.url.describe('Only deliveries sent to exactly this URL.'),
  createdFrom: deliveryList.createdFrom.describe(`Created at or after. ${from}`),
  createdTo: deliveryList.createdTo.describe(`Created at or before. ${to}`),
  eventId: deliveryList.eventId.describe("Only deliveries of this event (the envelope's id), whole."),
  recordId: deliveryList.recordId.describe('Only deliveries about this record (its id), whole.'),
  deliveryIdPrefix: deliveryList.idPrefix.describe(
    'A delivery by its id or its first 8+ hex digits (the short id the web app shows).',
  ),
  limit: limit(deliveryList.limit),
  cursor: cursor(deliveryList.cursor),
});
