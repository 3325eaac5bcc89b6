import { z } from 'zod';
import { id, page, timestamp } from '../http/view-schemas';

/** A delivery as REST, MCP and the web app return it (architecture.md, "response shapes"). */
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
    status: z.enum(['pending', 'sending', 'delivered', 'failed']),
    statusCode: z
      .int()
      .nullable()
      .meta({ description: 'null when no response arrived; 422 when it failed before sending.' }),
    responseMessage: z.string().nullable(),
    eventId: id.meta({ description: "The event's id, unchanged across retries and resends." }),
    attempts: z.int().min(0),
    nextAttemptAt: timestamp.nullable(),
    trigger: z.enum(['event', 'resend', 'test']).meta({
      description:
        '`event`: sent because the event happened; `resend`: resent by hand; `test`: a sample event sent by "Send test event" (its envelope carries `data.test: true`).',
    }),
    resendOf: id.nullable(),
    temporalUrl: z
      .string()
      .nullable()
      .meta({ description: "The delivery's workflow in the Temporal Web UI, when its address is known." }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'One delivery of one event to one webhook; retries update it, a resend adds one.' });
export type DeliveryView = z.output<typeof deliveryViewSchema>;

/** Deliveries a list counts at most: the count stays cheap however long the log grows. */
export const DELIVERY_COUNT_CAP = 10_000;

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
});
export type DeliveryAttemptView = z.output<typeof deliveryAttemptSchema>;

/**
 * Event Details: the delivery, its attempts, and the payload as the viewer may read it now
 * (spec.md, Event Details payload reading).
 */
export const eventDetailsSchema = deliveryViewSchema.extend({
  payload: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The event data as you may read it now (restricted values redacted).' }),
  attemptHistory: z.array(deliveryAttemptSchema),
});
export type EventDetails = z.output<typeof eventDetailsSchema>;
