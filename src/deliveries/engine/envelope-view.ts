import { z } from 'zod';
import { relatedRecordSchema, valueStateSchema } from '../../records/record-view';

/**
 * The body of a standard delivery, as a receiver gets it (docs/events.md): the envelope and the
 * `data` of record and messaging events. Described once here for the OpenAPI `webhooks` section.
 */
const recordRef = z.object({ typeId: z.string(), recordId: z.string() });
const change = z.enum(['added', 'removed']);

export const recordEventDataSchema = z.object({
  causeId: z.string().meta({ description: 'Shared by every event of the same write.' }),
  cause: z.looseObject({ kind: z.string() }).meta({
    description: 'What caused the write: `web`, `api`, `mcp`, `retention` (or `test` for a test event).',
  }),
  test: z.literal(true).optional().meta({ description: 'Present only on a test event ("Send test event").' }),
  record: z.object({
    ref: recordRef.meta({ description: 'Stable ids: unambiguous after renames.' }),
    schemaRevision: z.int().optional(),
    beforeVersion: z.int().nullable().optional(),
    afterVersion: z.int().nullable().optional().meta({ description: 'null on record.deleted.' }),
    fields: z
      .array(
        z.object({
          fieldId: z.string(),
          display: z.object({ label: z.string(), kind: z.string(), position: z.int() }),
          before: valueStateSchema,
          after: valueStateSchema,
        }),
      )
      .optional()
      .meta({ description: 'The changed fields.' }),
    links: z
      .array(
        z.object({
          fieldId: z.string(),
          display: z.object({ label: z.string() }),
          change,
          record: relatedRecordSchema,
        }),
      )
      .optional(),
    assignments: z
      .array(z.object({ change, user: z.object({ id: z.string(), name: z.string().nullable() }) }))
      .optional(),
    identities: z.array(z.object({ change, kind: z.string(), value: z.string() })).optional(),
  }),
});

export const messagingEventDataSchema = z
  .looseObject({
    entityId: z.string(),
    connectedAccountId: z.string(),
    provider: z.string(),
    test: z
      .literal(true)
      .optional()
      .meta({ description: 'Present only on a test event ("Send test event").' }),
  })
  .meta({
    description:
      'Ids of provider records (also `providerMessageId`, `threadId` and similar, by event); no CRM record is embedded.',
  });

export const operationalEventDataSchema = z
  .looseObject({
    webhook: z
      .object({ id: z.string(), url: z.string(), description: z.string().nullable() })
      .meta({ description: 'The webhook it is about (never the webhook receiving it).' }),
    endpoint: z
      .object({
        state: z.string(),
        reason: z.string().nullable(),
        since: z.iso.datetime(),
        failuresInARow: z.int(),
      })
      .optional()
      .meta({ description: 'webhook.endpoint.failing and .disabled: the endpoint’s state.' }),
    disabled: z
      .object({ reason: z.string(), at: z.iso.datetime(), gone: z.boolean() })
      .optional()
      .meta({ description: 'webhook.endpoint.disabled: why, since when, and whether for a 410 Gone.' }),
    delivery: z
      .object({
        id: z.string(),
        event: z.string(),
        eventId: z.string(),
        trigger: z.string(),
        attempts: z.int(),
        statusCode: z.int().nullable(),
        responseMessage: z.string().nullable(),
      })
      .optional()
      .meta({ description: 'webhook.delivery.exhausted: the delivery that failed for good.' }),
    test: z
      .literal(true)
      .optional()
      .meta({ description: 'Present only on a test event ("Send test event").' }),
  })
  .meta({ description: 'The service’s news of another webhook of the workspace (docs/events.md).' });

const envelope = <Data extends z.ZodType>(data: Data) =>
  z.object({
    event: z.string().meta({ description: 'The event name.' }),
    id: z
      .string()
      .meta({ description: 'The event id: the same on every retry and resend; deduplicate on it.' }),
    timestamp: z.iso.datetime().meta({ description: 'When the event happened (ISO 8601).' }),
    companyId: z.string().meta({ description: 'The workspace id.' }),
    actorId: z
      .string()
      .nullable()
      .meta({ description: 'The user who caused the write; null for messaging and test events.' }),
    data,
  });

export const recordEventEnvelopeSchema = envelope(recordEventDataSchema).meta({
  description: 'The body of a record event delivery (without a body template).',
});
export const messagingEventEnvelopeSchema = envelope(messagingEventDataSchema).meta({
  description: 'The body of a messaging event delivery (without a body template).',
});
export const operationalEventEnvelopeSchema = envelope(operationalEventDataSchema).meta({
  description: 'The body of an operational event delivery (without a body template).',
});
