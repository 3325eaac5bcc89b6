import { z } from 'zod';
import { id, page, timestamp } from '../../http/view-schemas';
import { EXAMPLE } from '../../http/view-examples';
import {
  ATTEMPT_BODY_DISPLAY_MAX_BYTES,
  MASKED_VALUE,
  RESPONSE_HEADERS_MAX_CHARS,
  RESPONSE_HEADERS_MAX_COUNT,
} from '../../shared/deliveries/attempt-record';
import { DELIVERY_COUNT_CAP } from '../../shared/deliveries/delivery-count-cap';
import { DELIVERY_STATES, DELIVERY_STATUSES } from '../../shared/deliveries/delivery-state';

/** A delivery as REST, MCP and the web app return it (docs/deliveries.md#the-delivery-log). */
export const deliveryViewSchema = z
  .object({
    id,
    webhookId: id,
    url: z.string(),
    event: z.string(),
    legacy: z.boolean().meta({ description: 'A retired type-specific event, shown with a (legacy) marker.' }),
    element: z
      .union([z.object({ typeId: z.string(), recordId: z.string() }), z.object({ entityId: z.string() })])
      .nullable()
      .meta({
        description: 'The affected record (record events), or the provider entity (messaging events).',
      }),
    elementName: z.string().nullable().meta({
      description:
        "The record's display name (its type's first text field) as you may read it now; null for messaging events, and when your role cannot read the record's type or that field, or the record was deleted permanently.",
    }),
    webhook: z
      .object({
        id,
        description: z.string().nullable(),
        deleted: z
          .boolean()
          .meta({ description: 'True when the webhook was deleted since (its deliveries stay).' }),
      })
      .meta({ description: 'The webhook this delivery belongs to, to name it by its description.' }),
    status: z.enum(DELIVERY_STATUSES).meta({
      description:
        "The spec's status. A delivery whose attempt failed stays `failed` while its next attempt is scheduled (see `state`).",
    }),
    state: z.enum(DELIVERY_STATES).meta({
      description:
        'What the delivery is doing now: its status, with Failed split in two. `retrying`: failed, and the next attempt of its schedule runs at `nextAttemptAt` (Retry now brings it forward). `failed`: failed for good, no attempt follows (Resend sends it again).',
    }),
    statusCode: z
      .int()
      .nullable()
      .meta({ description: 'null when no response arrived; 422 when it failed before sending.' }),
    responseMessage: z.string().nullable(),
    eventId: id.meta({ description: "The event's id, unchanged across retries and resends." }),
    attempts: z.int().min(0),
    nextAttemptAt: timestamp.nullable().meta({
      description: 'When the next attempt of the schedule runs, while the delivery is retrying; else null.',
    }),
    trigger: z.enum(['event', 'resend', 'test']).meta({
      description:
        '`event`: sent because the event happened; `resend`: resent by hand; `test`: a sample event sent by "Send test event" (its envelope carries `data.test: true`).',
    }),
    resendOf: id.nullable(),
    temporalUrl: z.string().nullable().meta({
      description:
        "The delivery's workflow in the Temporal Web UI, when its address is known; while the delivery is held (Pending, waiting for its endpoint before its workflow starts), its endpoint's held-deliveries workflow (`held-<webhookId>`).",
    }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'One delivery of one event to one webhook; retries update it, a resend adds one.' });
export type DeliveryView = z.output<typeof deliveryViewSchema>;

export const deliveryPageSchema = page(deliveryViewSchema).extend({
  total: z
    .object({
      count: z.int().min(0).max(DELIVERY_COUNT_CAP),
      capped: z.boolean().meta({
        description: `True when more than ${DELIVERY_COUNT_CAP.toLocaleString('en-US')} deliveries match.`,
      }),
    })
    .meta({
      description: `How many deliveries match the filters (every page, not only this one), counted up to ${DELIVERY_COUNT_CAP.toLocaleString('en-US')}.`,
    }),
});
export type DeliveryPage = z.output<typeof deliveryPageSchema>;

const headerSchema = z.object({ name: z.string(), value: z.string() });

const attemptRequestSchema = z.object({
  headers: z.array(headerSchema).meta({
    description: `The headers as sent, in order. The values of X-Webhook-Signature, webhook-signature and of every custom header read \`${MASKED_VALUE}\`.`,
  }),
  body: z.string().nullable().meta({
    description: 'The body as sent, byte for byte; null when withheld (see bodyWithheld).',
  }),
  bodySha256: z.string().nullable().meta({
    description:
      'SHA-256 of the body as sent (lowercase hex), always kept; null for readers from whom the body is withheld by their access (with the payload they may read, a hash would let them test guesses of a hidden value), and after an erasure for all but administrators.',
  }),
  bodyBytes: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'The body’s size in bytes; null when bodySha256 is.' }),
  bodyWithheld: z
    .object({
      reason: z.enum(['overDisplayLimit', 'viewerAccess', 'erased']),
      message: z.string(),
    })
    .nullable()
    .meta({
      description: `Why the body is not shown: over ${ATTEMPT_BODY_DISPLAY_MAX_BYTES / 1024} KiB (\`overDisplayLimit\`); a record event's body holding values your role cannot read now — it was rendered with the record owner's access — shown only to administrators and to readers whose access hides nothing of the event, like its hash, size and Content-Length (\`viewerAccess\`); or erased with its record (\`erased\`). Null when shown.`,
    }),
});

const attemptResponseSchema = z.object({
  headers: z.array(headerSchema).meta({
    description: `The receiver's headers, in order, at most ${RESPONSE_HEADERS_MAX_COUNT} and ${RESPONSE_HEADERS_MAX_CHARS.toLocaleString('en-US')} characters; credential-bearing values (Set-Cookie, Authorization, …) read \`${MASKED_VALUE}\`.`,
  }),
  omittedHeaders: z.int().min(0).meta({ description: 'How many further headers were not kept.' }),
});

/** One request of the retry schedule; a send interrupted by a crash is followed by another (issue 11). */
export const deliveryAttemptSchema = z.object({
  attempt: z.int().min(1).max(10).meta({ description: 'The attempt of the retry schedule (1 to 10).' }),
  send: z.int().min(1).meta({
    description:
      'Which request of this attempt: 2 or more only when an earlier request of the same attempt was interrupted by a crash (its outcome is then `unknown`).',
  }),
  startedAt: timestamp,
  durationMs: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'Null while the request is out or when its outcome is unknown.' }),
  url: z.string(),
  statusCode: z.int().nullable(),
  responseMessage: z
    .string()
    .nullable()
    .meta({ description: 'The reason phrase or the cause; null while the request is out.' }),
  outcome: z.enum(['sending', 'unknown', 'delivered', 'retry', 'failed']).meta({
    description:
      '`sending`: the request is out now. `unknown`: it was sent but the worker or the database was lost before its answer was recorded (the receiver may have got it). `retry`: failed, another attempt follows. `failed`: failed, no attempt follows.',
  }),
  request: attemptRequestSchema.nullable().meta({
    description:
      'What was sent. Null when nothing was sent (the attempt failed before sending), not recorded (older deliveries), or dropped at the end of its retention window (see requestExpiredAt).',
  }),
  requestExpiredAt: timestamp.nullable().meta({
    description:
      'When the request’s headers and body (with its SHA-256 and size) were dropped: each attempt keeps them for a retention window after it started (DELIVERY_ATTEMPT_DETAILS_DAYS, 30 days by default), while the delivery and the attempt’s outcome stay. Null while they are kept, and when nothing was kept.',
  }),
  response: attemptResponseSchema.nullable().meta({
    description:
      'What came back, besides the status code and reason. Null without an answer (timeout, network error) or not recorded. The receiver’s body is never kept.',
  }),
});
export type DeliveryAttemptView = z.output<typeof deliveryAttemptSchema>;

/**
 * Event Details: the delivery, its attempts, and the payload as the viewer may read it now
 * (docs/events.md#redaction).
 */
export const eventDetailsSchema = deliveryViewSchema.extend({
  payload: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The event data as you may read it now (restricted values redacted).' }),
  attemptHistory: z.array(deliveryAttemptSchema),
});
export type EventDetails = z.output<typeof eventDetailsSchema>;

// ---- The OpenAPI examples (success-examples.test.ts parses each with its schema) -------------

/** A record.updated delivered at the first attempt. */
export const deliveryViewExample = {
  id: EXAMPLE.deliveryId,
  webhookId: EXAMPLE.webhookId,
  url: 'https://example.com/hooks/crm',
  event: 'record.updated',
  legacy: false,
  element: { typeId: EXAMPLE.dealTypeId, recordId: EXAMPLE.recordId },
  elementName: 'Acme renewal',
  webhook: {
    id: EXAMPLE.webhookId,
    description: 'New and changed deals to the billing system',
    deleted: false,
  },
  status: 'delivered',
  state: 'delivered',
  statusCode: 200,
  responseMessage: 'OK',
  eventId: EXAMPLE.eventId,
  attempts: 1,
  nextAttemptAt: null,
  trigger: 'event',
  resendOf: null,
  temporalUrl: null,
  createdAt: '2025-03-04T16:20:04.000Z',
  updatedAt: '2025-03-04T16:20:05.000Z',
} satisfies DeliveryView;

/** What a resend answers: a new delivery of the same event, not sent yet. */
export const resentDeliveryExample = {
  ...deliveryViewExample,
  id: EXAMPLE.resendId,
  status: 'pending',
  state: 'pending',
  statusCode: null,
  responseMessage: null,
  attempts: 0,
  trigger: 'resend',
  resendOf: EXAMPLE.deliveryId,
  createdAt: '2025-03-05T08:00:00.000Z',
  updatedAt: '2025-03-05T08:00:00.000Z',
} satisfies DeliveryView;

/** What Retry now answers: a retrying delivery (3 attempts failed) whose 4th attempt runs now. */
export const retriedNowDeliveryExample = {
  ...deliveryViewExample,
  status: 'failed',
  state: 'retrying',
  statusCode: 503,
  responseMessage: 'Service Unavailable',
  attempts: 3,
  nextAttemptAt: '2025-03-04T16:21:31.000Z',
  updatedAt: '2025-03-04T16:21:31.000Z',
} satisfies DeliveryView;

/** What "Send test event" answers: a sample event's delivery, not sent yet. */
export const testDeliveryExample = {
  ...resentDeliveryExample,
  event: 'record.created',
  element: { typeId: EXAMPLE.dealTypeId, recordId: EXAMPLE.contactRecordId },
  elementName: null,
  eventId: EXAMPLE.resendId,
  trigger: 'test',
  resendOf: null,
} satisfies DeliveryView;

export const deliveryPageExample = {
  data: [deliveryViewExample],
  nextCursor: null,
  total: { count: 1, capped: false },
} satisfies DeliveryPage;

export const eventDetailsExample = {
  ...deliveryViewExample,
  payload: {
    causeId: '0f5e2b7c-9a3d-4c81-b6e4-2d8a1f7c3b95',
    cause: { kind: 'api' },
    record: {
      ref: { typeId: EXAMPLE.dealTypeId, recordId: EXAMPLE.recordId },
      schemaRevision: 12,
      beforeVersion: 3,
      afterVersion: 4,
      fields: [
        {
          fieldId: EXAMPLE.amountFieldId,
          display: { label: 'Amount', kind: 'number', position: 2 },
          before: { state: 'value', kind: 'number', value: 12000 },
          after: { state: 'value', kind: 'number', value: 12500 },
        },
      ],
    },
  },
  attemptHistory: [
    {
      attempt: 1,
      send: 1,
      startedAt: '2025-03-04T16:20:04.310Z',
      durationMs: 182,
      url: 'https://example.com/hooks/crm',
      statusCode: 200,
      responseMessage: 'OK',
      outcome: 'delivered',
      request: {
        headers: [
          { name: 'Content-Type', value: 'application/json' },
          { name: 'User-Agent', value: 'crm-webhooks/1.0 (+webhooks)' },
          { name: 'X-Service-Delivery-Id', value: EXAMPLE.deliveryId },
          { name: 'X-Webhook-Event', value: 'record.updated' },
          { name: 'X-Webhook-Signature', value: '********' },
          { name: 'X-Team', value: '********' },
          { name: 'Content-Length', value: '********' },
        ],
        body: null,
        bodySha256: null,
        bodyBytes: null,
        bodyWithheld: {
          reason: 'viewerAccess',
          message:
            'The body was rendered with the record owner’s access and holds values your role cannot read now: it is not shown, nor its SHA-256 or size.',
        },
      },
      requestExpiredAt: null,
      response: {
        headers: [
          { name: 'Content-Type', value: 'text/plain' },
          { name: 'Set-Cookie', value: '********' },
        ],
        omittedHeaders: 0,
      },
    },
  ],
} satisfies EventDetails;
