import { z } from 'zod';
import { listAllDeliveriesQuery } from '../../deliveries/log/delivery-query';
import { WEBHOOK_EVENTS } from '../../shared/events/event-catalog';
import { SECRET_ROTATION_GRACE_HOURS_DEFAULT, WEBHOOK_SECRET_MAX } from '../../shared/limits';
import { RESERVED_HEADER_NAMES, WEBHOOK_HEADERS_TOTAL_MAX } from '../../shared/webhooks/webhook-headers';
import { WEBHOOK_URL_MAX } from '../../shared/webhooks/webhook-url';
import { recordFilterSchema, recordQuerySchema } from '../../records/query/record-query';
import { recordSourceSchema } from '../../webhooks/record-source-schemas';
import { listWebhooksQuery, rotateSecretBody, webhookFields } from '../../webhooks/webhooks.schemas';
import { describeInput } from '../schemas/names';

/**
 * The MCP inputs of the webhook actions: the REST request schemas (one validation layer), each
 * described for an assistant. The request schemas advertise the rules' limits themselves, so
 * OpenAPI and MCP state the same ones; the event names are advertised here from the catalog.
 */

// The record settings inside (a source's query, its filters, events), as an assistant must fill them:
// stable ids from get_record_model, never names.
describeInput(recordQuerySchema, "One type's records.");
describeInput(recordQuerySchema.shape.typeId, 'A type id from get_record_model.');
describeInput(recordQuerySchema.shape.search, 'Text in a text, email, URL or select value.');
describeInput(recordQuerySchema.shape.filters, 'All must match.');
describeInput(recordFilterSchema.shape.fieldId, 'A field id from get_record_model.');
describeInput(recordFilterSchema.shape.op, 'in takes a list; isEmpty and isNotEmpty no value.');
describeInput(recordFilterSchema.shape.value, "A value of the field's kind (record ids for a link).");
describeInput(recordSourceSchema.shape.events, "Its record events (default: the webhook's).");

/**
 * Every webhook field (a new one is listed at once; the tools/list test asks for its description).
 * The plain text fields carry theirs from src/shared/webhooks/webhook-fields.ts.
 */
export const webhookInputs = {
  ...webhookFields,
  url: webhookFields.url.describe(
    'http(s)://, no user or password (https:// added without a scheme). ' +
      'With custom headers: https://, or http:// on localhost, 127.0.0.1 or ::1.',
  ),
  events: webhookFields.events.meta({
    items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    minItems: 1,
    description:
      'The events to receive. record.* events follow recordTrigger or recordSources; messaging.* come from ' +
      'connected messaging accounts.',
  }),
  operationalEvents: webhookFields.operationalEvents.describe(
    "Also these, about the workspace's other webhooks. Default none.",
  ),
  secret: webhookFields.secret.describe(
    'Signs every delivery (X-Webhook-Signature); never returned (hasSecret). null removes it.',
  ),
  headers: webhookFields.headers.describe(
    `Name to value: HTTP token names, one-line Latin-1 values, ` +
      `${WEBHOOK_HEADERS_TOTAL_MAX} characters in all; not ${RESERVED_HEADER_NAMES.join(', ')}. ` +
      'Values never returned (headerNames). Update: omitted keeps, null clears.',
  ),
  bodyTemplate: webhookFields.bodyTemplate.describe(
    'A JSON object sent instead of the envelope; placeholders in strings: {{event}}, {{id}}, {{timestamp}}, ' +
      '{{companyId}}, {{actorId}}, {{data.<path>}}. null removes it.',
  ),
  enabled: webhookFields.enabled.describe('false: receives nothing, keeps its settings. Default true.'),
  standardWebhooks: webhookFields.standardWebhooks.describe(
    'Also send Standard Webhooks headers (webhook-id, -timestamp, -signature). Default true; ' +
      'generated secrets are whsec_… for the libraries.',
  ),
  expectedSchemaRevision: webhookFields.expectedSchemaRevision.describe(
    'schemaRevision from get_record_model: needed with record events and when recordTrigger, recordSources ' +
      'or recordOwnerUserId change; refused when stale.',
  ),
  recordTrigger: webhookFields.recordTrigger.describe(
    'Which records send record events. ' +
      'null: every type the record owner can read. Not with recordSources.',
  ),
  recordSources: webhookFields.recordSources.describe(
    'Several record sources, each as recordTrigger with its own events; null clears them. Not with recordTrigger.',
  ),
  recordOwnerUserId: webhookFields.recordOwnerUserId.describe(
    'The member whose record access redacts deliveries. Default: you; only an Admin picks another.',
  ),
};

export const webhookId = z.uuid().describe('The webhook id (from list, or list_webhooks).');

const rotation = rotateSecretBody.shape;
/** rotate_secret's inputs beside the webhook id. */
export const rotateSecretInputs = {
  secret: rotation.secret.meta({
    minLength: 1,
    maxLength: WEBHOOK_SECRET_MAX,
    description: 'The new secret; omit or null to generate one.',
  }),
  graceHours: rotation.graceHours.describe(
    `Hours (default ${SECRET_ROTATION_GRACE_HOURS_DEFAULT}) the old secret ` +
      'still signs: webhook-signature carries both, X-Webhook-Signature the old one until then.',
  ),
};
export const deliveryId = z.uuid().describe('The delivery id (from list_deliveries).');

const limit = <Limit extends z.ZodType>(schema: Limit) => schema.describe('Page size.');
const cursor = <Cursor extends z.ZodType>(schema: Cursor) =>
  schema.describe('nextCursor of the previous page.');
const from = 'A date: from 00:00 UTC.';
const to = 'A date: its whole day (UTC).';

const webhookList = listWebhooksQuery.shape;
export const listWebhooksInput = z.strictObject({
  search: webhookList.search.describe('Text in the URL.'),
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
  id: deliveryList.webhookId.describe("This webhook's deliveries (a deleted one's too)."),
  searchTerm: deliveryList.searchTerm.describe('Text in the URL or event name.'),
  status: deliveryList.status.describe("The spec's status; failed includes the retrying ones."),
  state: deliveryList.state.describe('retrying: failed, next attempt scheduled; failed: for good.'),
  event: deliveryList.event.describe('This event name, exactly.'),
  // Deliveries are sent to saved URLs, so a longer one matches none: the rule's limit is advertised.
  deliveryUrl: deliveryList.url.meta({
    maxLength: WEBHOOK_URL_MAX,
    description: 'Sent to exactly this URL.',
  }),
  createdFrom: deliveryList.createdFrom.describe(`Created at or after. ${from}`),
  createdTo: deliveryList.createdTo.describe(`Created at or before. ${to}`),
  eventId: deliveryList.eventId.describe("This event's deliveries (the envelope id)."),
  recordId: deliveryList.recordId.describe("This record's deliveries."),
  deliveryIdPrefix: deliveryList.idPrefix.describe('A delivery id or its first 8+ hex digits.'),
  limit: limit(deliveryList.limit),
  cursor: cursor(deliveryList.cursor),
});

/**
 * get_delivery's delivery: its id or its short id, by the rule list_deliveries' deliveryIdPrefix
 * follows (the first 8 or more hex digits, as the web app shows it; issue 37, item 6).
 */
export const deliveryIdOrShortId = deliveryList.idPrefix
  .unwrap()
  .describe('Its id, or short id (8+ hex digits).');
