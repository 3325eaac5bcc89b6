import { z } from 'zod';
import { id, page, timestamp } from '../http/view-schemas';
import { recordSourcesSchema, recordTriggerSchema } from './record-source-schemas';
import { EXAMPLE } from '../http/view-examples';
import { WEBHOOK_TEXT_FIELDS, byTextField } from '../shared/webhooks/webhook-fields';
import { DELIVERY_STATES, DELIVERY_STATUSES } from '../shared/deliveries/delivery-state';
import { ENDPOINT_STATES, FAILING_AFTER } from '../shared/deliveries/endpoint-state';
import { WEBHOOK_RATE_LIMIT_ABOUT } from '../shared/webhooks/send-rate';

/** Deliveries by outcome over a window (also a chart's totals). */
export const windowHealthSchema = z.object({
  delivered: z.int().min(0),
  failed: z.int().min(0).meta({ description: 'Failed for good: no attempt follows.' }),
  retrying: z.int().min(0).meta({
    description: 'Failed, and the next attempt of the schedule is to come (their status is `failed`).',
  }),
  inFlight: z.int().min(0).meta({ description: 'Pending or Sending now.' }),
  successRate: z.number().min(0).max(1).nullable().meta({
    description:
      'delivered / (delivered + failed), over the finished deliveries: a retrying one counts neither way until it is delivered or fails for good. null when none finished.',
  }),
});

/** The endpoint's state as the workers last saw its attempts (src/shared/deliveries/endpoint-state.ts). */
export const endpointStateSchema = z
  .object({
    state: z.enum(ENDPOINT_STATES).meta({
      description:
        'healthy: its latest attempt delivered (however slowly, within the 5 s timeout). ' +
        'degraded: its latest attempt timed out, failed or got no response; its attempts and new ' +
        `deliveries wait in the slow lane, so they may arrive later. failing: ${FAILING_AFTER} attempts in ` +
        'a row did not deliver; its deliveries wait in the slow lane too. The next attempt that delivers ' +
        'makes it healthy.',
    }),
    reason: z.string().nullable().meta({
      description: 'Why it is not healthy: the latest failed attempt’s status or error. null when healthy.',
    }),
    since: timestamp.meta({ description: 'When it entered this state.' }),
  })
  .meta({ description: 'The endpoint’s state as its delivery attempts show it.' });

/**
 * Endpoint health at a glance: the last delivery, the outcomes of the last 24 hours and 7 days, and
 * the endpoint's state.
 */
export const webhookHealthSchema = z
  .object({
    lastDelivery: z
      .object({
        status: z.enum(DELIVERY_STATUSES),
        state: z.enum(DELIVERY_STATES).meta({
          description:
            'Its status, with Failed split: `retrying` (a next attempt to come) or `failed` (for good).',
        }),
        at: timestamp,
      })
      .nullable(),
    last24h: windowHealthSchema.meta({
      description: 'Deliveries created in the current UTC hour and the 23 before it, by their status now.',
    }),
    last7d: windowHealthSchema.meta({
      description: 'Deliveries created in the current UTC hour and the 167 before it, by their status now.',
    }),
    endpoint: endpointStateSchema.nullable().meta({
      description:
        'The endpoint’s state from its latest attempts; null until an attempt of this webhook has been seen.',
    }),
  })
  .meta({
    description: 'Counted from the delivery log when the webhook is read, with the endpoint’s state.',
  });
export type WebhookHealth = z.output<typeof webhookHealthSchema>;
export type EndpointStateView = z.output<typeof endpointStateSchema>;

const NO_WINDOW = { delivered: 0, failed: 0, retrying: 0, inFlight: 0, successRate: null };
/** The health of a webhook that has sent nothing yet. */
export const NO_HEALTH: WebhookHealth = {
  lastDelivery: null,
  last24h: NO_WINDOW,
  last7d: NO_WINDOW,
  endpoint: null,
};

/** The text fields of the view schema (webhook-view.ts). */
const textViewFields = () => byTextField(() => z.string().nullable());

/** Their values in the OpenAPI example (each field's first sample). */
const textExamples = () => byTextField((field) => WEBHOOK_TEXT_FIELDS[field].samples[0]);

/** A webhook as REST, MCP and the web app return it: never its secret or header values. */
export const webhookViewSchema = z
  .object({
    id,
    url: z.string(),
    ...textViewFields(),
    events: z.array(z.string()),
    legacyEvents: z.array(z.string()).meta({
      description:
        'The retired type-specific events among `events` (older, imported webhooks): shown as (legacy).',
    }),
    operationalEvents: z.array(z.string()).meta({
      description:
        'The operational events it also receives, about the workspace’s other webhooks (docs/events.md#operational-events).',
    }),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().meta({
      description:
        'Why the service disabled the webhook: its endpoint failed every attempt for the auto-disable period, or answered 410 Gone (docs/deliveries.md). null when enabled, or disabled by a person. Enabling it again clears this.',
    }),
    disabledAt: timestamp.nullable().meta({
      description: 'Since when the service has disabled it; null like disabledReason.',
    }),
    standardWebhooks: z.boolean().meta({
      description:
        'Each POST also carries the Standard Webhooks headers webhook-id (the event id), webhook-timestamp and, with a secret, webhook-signature (v1,<base64>), for the standardwebhooks libraries.',
    }),
    rateLimit: z.int().nullable().meta({ description: WEBHOOK_RATE_LIMIT_ABOUT }),
    hasSecret: z.boolean().meta({ description: 'The secret itself is never returned.' }),
    previousSecretExpiresAt: timestamp.nullable().meta({
      description:
        'After a secret rotation: until when the secret it replaced still signs, beside the current one in webhook-signature (Standard Webhooks) and alone in X-Webhook-Signature (one signature), which then switches to the current secret. null when no previous secret signs. The previous secret is never returned.',
    }),
    headerNames: z.array(z.string()).meta({ description: 'Header values are never returned.' }),
    bodyTemplate: z.string().nullable(),
    recordTrigger: recordTriggerSchema.nullable(),
    recordSources: recordSourcesSchema.nullable(),
    recordOwnerUserId: id.nullable(),
    recordOwnerName: z.string().nullable().meta({
      description:
        'The record owner’s name. Deliveries are redacted with their access; only they or an Admin can change where or how the webhook sends.',
    }),
    expectedSchemaRevision: z
      .int()
      .min(0)
      .nullable()
      .meta({ description: 'The schema revision the record settings were checked against.' }),
    health: webhookHealthSchema,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'A webhook: never its secret or header values.' });
export type WebhookView = z.output<typeof webhookViewSchema>;

/**
 * A webhook's saved secret and custom header values, opened: the webhook dialog's
 * `GET /app/api/webhooks/{id}/secrets` (Admin or Edit only); never part of the REST API.
 */
export const webhookSecretsSchema = z.object({
  secret: z.string().nullable(),
  headers: z.record(z.string(), z.string()).nullable(),
});
export type WebhookSecrets = z.output<typeof webhookSecretsSchema>;

export const webhookPageSchema = page(webhookViewSchema);
export type WebhookPage = z.output<typeof webhookPageSchema>;

// ---- The OpenAPI examples (success-examples.test.ts parses each with its schema) -------------

const exampleWindow = (delivered: number, failed: number, retrying: number) => ({
  delivered,
  failed,
  retrying,
  inFlight: 0,
  successRate: delivered + failed ? delivered / (delivered + failed) : null,
});

/** A webhook following won deals of one type, as an answer shows it. */
export const webhookViewExample = {
  id: EXAMPLE.webhookId,
  url: 'https://example.com/hooks/crm',
  ...textExamples(),
  description: 'New and changed deals to the billing system',
  events: ['record.created', 'record.updated'],
  legacyEvents: [],
  operationalEvents: [],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  standardWebhooks: true,
  rateLimit: 20,
  hasSecret: true,
  previousSecretExpiresAt: null,
  headerNames: ['X-Billing-Token'],
  bodyTemplate: null,
  recordTrigger: {
    query: {
      typeId: EXAMPLE.dealTypeId,
      search: 'renewal',
      filters: [{ fieldId: EXAMPLE.stageFieldId, op: 'eq', value: 'Won' }],
    },
    changedFieldIds: [EXAMPLE.amountFieldId],
  },
  recordSources: null,
  recordOwnerUserId: EXAMPLE.userId,
  recordOwnerName: 'Ada Lovelace',
  expectedSchemaRevision: 12,
  health: {
    lastDelivery: { status: 'delivered', state: 'delivered', at: '2025-03-04T16:20:05.000Z' },
    last24h: exampleWindow(18, 1, 1),
    last7d: exampleWindow(131, 3, 1),
    endpoint: { state: 'healthy', reason: null, since: '2025-03-02T08:14:31.000Z' },
  },
  createdAt: '2025-03-01T09:30:00.000Z',
  updatedAt: '2025-03-02T11:05:42.000Z',
} satisfies WebhookView;

/** What creating the example webhook of `POST /api/v1/webhooks` answers: no deliveries yet. */
export const webhookCreatedExample = {
  ...webhookViewExample,
  recordTrigger: null,
  health: NO_HEALTH,
  updatedAt: webhookViewExample.createdAt,
} satisfies WebhookView;

export const webhookPageExample = {
  data: [webhookViewExample],
  nextCursor: null,
} satisfies WebhookPage;
