import { z } from 'zod';
import type { IngestResult } from '../../messaging/messaging.service';
import type { ApiKeyActor, ApiKeyRefusal } from '../../api-keys/api-key-auth';
import { STATUS_BY_KIND, type AppError, type ErrorKind } from '../../shared/app-error';
import type { ApiPermissions } from '../../identity/permissions';
import type { Role } from '../../identity/role.entity';
import type { User } from '../../identity/user.entity';
import type { Workspace } from '../../identity/workspace.entity';
import { FIELD_KINDS } from '../../record-model/field-kinds';
import type { visibleModel } from '../../record-model/model.service';
import type { RecordField } from '../../record-model/record-field.entity';
import { BUILTIN_TYPES, type RecordType } from '../../record-model/record-type.entity';
import type { RecordView } from '../../records/record-view';
import { IDENTITY_KINDS } from '../../records/records.schemas';
import type { RecordsService } from '../../records/records.service';
import { recordSourcesSchema, recordTriggerSchema } from '../../webhooks/record-sources';
import type { WebhookView } from '../../webhooks/webhook-view';
import type { WebhooksService } from '../../webhooks/webhooks.service';
import type { DeliveriesService, EventDetails } from '../../deliveries/deliveries.service';
import type { DeliveryAttemptView, DeliveryView } from '../../deliveries/delivery-view';

/**
 * Zod schemas of the REST response bodies, for the OpenAPI document (`io: 'output'`) and for the
 * tests that parse real answers with them. Each is held equal to the type the code returns by
 * `ResponseSchemaChecks` at the bottom, so a changed view fails `tsc` until its schema follows.
 */

const id = z.uuid();
const timestamp = z.iso.datetime();

// ---- Records --------------------------------------------------------------------------------

export const valueStateSchema = z
  .discriminatedUnion('state', [
    z.object({ state: z.literal('value'), kind: z.enum(FIELD_KINDS).exclude(['link']), value: z.unknown() }),
    z.object({ state: z.literal('missing') }),
    z.object({ state: z.literal('restricted') }),
    z.object({ state: z.literal('error'), message: z.string() }),
  ])
  .meta({
    description:
      'A field value as a reader sees it. Formatted text is `{ state: "value", kind: "richText", value: { documentJson } }`; a restricted field reads `restricted`.',
  });

export const relatedRecordSchema = z
  .object({
    ref: z.object({ typeId: z.string(), recordId: id }),
    display: z.string().nullable(),
  })
  .meta({
    description:
      "A linked record: its reference and display name (null when it has none or you can't read its type).",
  });

export const recordViewSchema = z.object({
  id,
  typeId: id,
  version: z.int().min(1),
  status: z.enum(['active', 'trashed', 'erased']),
  createdAt: timestamp,
  updatedAt: timestamp,
  trashedAt: timestamp.nullable(),
  values: z.record(z.string(), valueStateSchema).meta({ description: 'Per field id.' }),
  links: z.record(z.string(), z.array(relatedRecordSchema)).meta({ description: 'Per link field id.' }),
  assignments: z.array(z.object({ id, name: z.string().nullable() })),
  identities: z.array(z.object({ kind: z.enum(IDENTITY_KINDS), value: z.string() })),
});

/** A page of a newest-first list (architecture.md, "paging"). */
const page = <Item extends z.ZodType>(item: Item) =>
  z.object({
    data: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  });

export const recordPageSchema = page(recordViewSchema);

// ---- Record model ---------------------------------------------------------------------------

const builtin = z
  .enum(BUILTIN_TYPES)
  .nullable()
  .meta({ description: 'The built-in key, or null for a custom type.' });
const fieldKind = z.enum(FIELD_KINDS);
const fieldConfig = z.object({
  options: z.array(z.string()).optional(),
  expression: z.string().optional(),
  targetTypeId: z.string().optional(),
});

export const modelDiscoverySchema = z.object({
  schemaRevision: z.int().min(0),
  types: z.array(z.object({ id, name: z.string(), builtin, fieldCount: z.int().min(0) })),
});

export const modelTypeReadSchema = z.object({
  schemaRevision: z.int().min(0),
  type: z.object({
    id,
    name: z.string(),
    builtin,
    fields: z.array(
      z.object({
        id,
        typeId: id,
        name: z.string(),
        kind: fieldKind,
        config: fieldConfig,
        position: z.int(),
        restricted: z.boolean().meta({ description: 'Your role cannot read this field.' }),
      }),
    ),
  }),
});

/** What a model change answers: the stored type or field (`deletedAt` is absent on creation). */
export const recordTypeResourceSchema = z.object({
  id,
  workspaceId: id,
  builtin,
  name: z.string(),
  createdAt: timestamp,
  deletedAt: timestamp.nullable().optional(),
});

export const recordFieldResourceSchema = z.object({
  id,
  workspaceId: id,
  typeId: id,
  name: z.string(),
  kind: fieldKind,
  config: fieldConfig,
  position: z.int(),
  createdAt: timestamp,
  deletedAt: timestamp.nullable().optional(),
});

// ---- Webhooks -------------------------------------------------------------------------------

export const webhookViewSchema = z
  .object({
    id,
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    legacyEvents: z.array(z.string()).meta({
      description:
        'The retired type-specific events among `events` (older, imported webhooks): shown as (legacy).',
    }),
    enabled: z.boolean(),
    hasSecret: z.boolean().meta({ description: 'The secret itself is never returned.' }),
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
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'A webhook: never its secret or header values.' });

export const webhookPageSchema = page(webhookViewSchema);

// ---- Deliveries -----------------------------------------------------------------------------

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
    status: z.enum(['pending', 'sending', 'delivered', 'failed']),
    statusCode: z
      .int()
      .nullable()
      .meta({ description: 'null when no response arrived; 422 when it failed before sending.' }),
    responseMessage: z.string().nullable(),
    eventId: id.meta({ description: "The event's id, unchanged across retries and resends." }),
    attempts: z.int().min(0),
    nextAttemptAt: timestamp.nullable(),
    trigger: z.enum(['event', 'resend']),
    resendOf: id.nullable(),
    temporalUrl: z
      .string()
      .nullable()
      .meta({ description: "The delivery's workflow in the Temporal Web UI, when its address is known." }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ description: 'One delivery of one event to one webhook; retries update it, a resend adds one.' });

export const deliveryPageSchema = page(deliveryViewSchema);

const deliveryAttemptSchema = z.object({
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
  responseMessage: z.string(),
  outcome: z.enum(['sending', 'unknown', 'delivered', 'retry', 'failed']).meta({
    description:
      '`sending`: the request is out now. `unknown`: it was sent but the worker or the database was lost before its answer was recorded (the receiver may have got it). `retry`: failed, another attempt follows. `failed`: failed, no attempt follows.',
  }),
});

export const eventDetailsSchema = deliveryViewSchema.extend({
  payload: z
    .record(z.string(), z.unknown())
    .meta({ description: 'The event data as you may read it now (restricted values redacted).' }),
  attemptHistory: z.array(deliveryAttemptSchema),
});

// ---- Identity -------------------------------------------------------------------------------

export const meSchema = z.object({
  user: z.object({ id, email: z.string(), name: z.string() }),
  workspace: z.object({ id, name: z.string() }),
  role: z.object({ id, name: z.string() }),
  permissions: z.object({
    apiRead: z.boolean(),
    apiCreate: z.boolean(),
    apiEdit: z.boolean(),
    apiDelete: z.boolean(),
    manageWorkspace: z.boolean(),
  }),
  apiKey: z.object({ id }),
});

// ---- Refusals -------------------------------------------------------------------------------

export const refusalSchema = z
  .object({
    error: z.object({
      kind: z.enum(Object.keys(STATUS_BY_KIND) as ErrorKind[]),
      issues: z.array(
        z.object({
          code: z.string(),
          path: z.array(z.union([z.string(), z.number()])),
          message: z.string().meta({ description: 'For people; branch on customCode instead.' }),
          customCode: z.string().optional(),
        }),
      ),
      retryable: z.boolean().optional(),
    }),
  })
  .meta({ description: 'The refusal body of every REST endpoint (spec.md, "Errors").' });

export const MCP_REFUSALS = [
  'invalid_api_key',
  'plan_required',
  'member_inactive',
  'insufficient_permissions',
] as const;

export const mcpRefusalSchema = z
  .object({ error: z.enum(MCP_REFUSALS), error_description: z.string() })
  .meta({ description: 'The MCP endpoint refuses a key with this body instead of the REST one.' });

// ---- MCP (JSON-RPC 2.0) ---------------------------------------------------------------------

const jsonRpcId = z.union([z.string(), z.number()]);

export const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId.optional().meta({ description: 'Absent for notifications (answered 202).' }),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'A JSON-RPC 2.0 message, for example `tools/list` or `tools/call`.' });

export const jsonRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
});

// ---- This document ----------------------------------------------------------------------------

export const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'An OpenAPI 3.1 document.' });

// ---- Held equal to the code's own types -----------------------------------------------------

/** True when A and B are assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Check<T extends true> = T;

/** JSON turns dates into ISO strings. */
type Json<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};
/** A just-created entity has no `deletedAt` key yet (TypeORM returns only generated columns). */
type ModelChangeAnswer<T> = Omit<Json<T>, 'deletedAt'> & { deletedAt?: string | null };

/** What a service method answers. */
type Answer<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Visible = ReturnType<typeof visibleModel>;

/** `GET /api/v1/me` (src/identity/me.routes.ts), built from the actor's parts. */
type MeAnswer = {
  user: Pick<User, 'id' | 'email' | 'name'>;
  workspace: Pick<Workspace, 'id' | 'name'>;
  role: Pick<Role, 'id' | 'name'>;
  permissions: ApiPermissions;
  apiKey: { id: ApiKeyActor['apiKeyId'] };
};

/** Identities are documented with their kinds; the view types them as plain strings. */
type DocumentedRecordView = Omit<RecordView, 'identities'> & {
  identities: { kind: (typeof IDENTITY_KINDS)[number]; value: string }[];
};

/** `ApiKeyRefusedError.mcpError`: the three authentication reasons collapse to one. */
type McpRefusal = Exclude<ApiKeyRefusal, 'missing' | 'invalid' | 'expired'> | 'invalid_api_key';

export type ResponseSchemaChecks = [
  Check<Same<z.output<typeof recordViewSchema>, DocumentedRecordView>>,
  Check<DocumentedRecordView extends RecordView ? true : false>,
  Check<Same<Answer<RecordsService['list']>['data'][number], RecordView>>,
  Check<
    Same<
      z.output<typeof recordPageSchema>,
      { data: DocumentedRecordView[]; nextCursor: Answer<RecordsService['list']>['nextCursor'] }
    >
  >,
  Check<Same<z.output<typeof webhookViewSchema>, WebhookView>>,
  Check<Same<z.output<typeof webhookPageSchema>, Answer<WebhooksService['list']>>>,
  Check<
    Same<
      z.output<typeof modelDiscoverySchema>,
      {
        schemaRevision: Visible['schemaRevision'];
        types: (Pick<Visible['types'][number], 'id' | 'name' | 'builtin'> & { fieldCount: number })[];
      }
    >
  >,
  Check<
    Same<z.output<typeof modelTypeReadSchema>, { schemaRevision: number; type: Visible['types'][number] }>
  >,
  Check<Same<z.output<typeof recordTypeResourceSchema>, ModelChangeAnswer<RecordType>>>,
  Check<Same<z.output<typeof recordFieldResourceSchema>, ModelChangeAnswer<RecordField>>>,
  Check<Same<z.output<typeof deliveryViewSchema>, DeliveryView>>,
  Check<Same<z.output<typeof deliveryPageSchema>, Answer<DeliveriesService['list']>>>,
  Check<Same<z.output<typeof deliveryAttemptSchema>, DeliveryAttemptView>>,
  Check<Same<z.output<typeof eventDetailsSchema>, EventDetails>>,
  Check<Same<z.output<typeof meSchema>, MeAnswer>>,
  Check<Same<z.output<typeof refusalSchema>, ReturnType<AppError['toBody']>>>,
  Check<Same<z.output<typeof mcpRefusalSchema>['error'], McpRefusal>>,
];

/** `POST /api/v1/messaging/inbound/{accountId}`: what happened to one provider activity. */
export const ingestResultSchema = z.object({
  stored: z
    .boolean()
    .meta({ description: 'Whether a messaging event was kept (only while a webhook subscribes).' }),
  eventId: z.uuid().optional(),
  duplicate: z
    .boolean()
    .optional()
    .meta({ description: 'The provider event came before: nothing new was kept.' }),
  reason: z.string().optional(),
}) satisfies z.ZodType<IngestResult>;
