import { z } from 'zod';
import { withCode } from '../errors/zod-issues';
import { OPERATIONAL_EVENTS } from '../shared/events/event-catalog';
import {
  WEBHOOK_RATE_LIMIT_ABOUT,
  WEBHOOK_RATE_LIMIT_MAX,
  WEBHOOK_RATE_LIMIT_MIN,
  WEBHOOK_RATE_LIMIT_RULE,
} from '../shared/webhooks/send-rate';
import { canonicalUuid } from '../shared/id-spelling';
import {
  BODY_TEMPLATE_MAX,
  SECRET_ROTATION_GRACE_HOURS_DEFAULT,
  SECRET_ROTATION_GRACE_HOURS_MAX,
  WEBHOOK_SECRET_MAX,
} from '../shared/limits';
import {
  WEBHOOK_HEADER_NAME_MAX,
  WEBHOOK_HEADER_VALUE_MAX,
  WEBHOOK_HEADERS_MAX_COUNT,
} from '../shared/webhooks/webhook-headers';
import { WEBHOOK_URL_MAX } from '../shared/webhooks/webhook-url';
import {
  byTextField,
  WEBHOOK_FIELD_OWNERSHIP,
  WEBHOOK_TEXT_FIELDS,
  textTooLongCode,
  textTooLongMessage,
  type FieldOwnership,
  type WebhookTextFieldName,
} from '../shared/webhooks/webhook-fields';
import { pagingQuery } from '../http/paging-query';
import { ownCharacterRule } from '../http/validate';
import { recordSourcesSchema, recordTriggerSchema } from './record-source-schemas';

/** A plain text field of webhook-fields.ts: a refinement (for its customCode), its limit stated with `meta`. */
const textField = (field: WebhookTextFieldName) =>
  z
    .string()
    .refine(
      (text) => text.length <= WEBHOOK_TEXT_FIELDS[field].max,
      withCode(textTooLongCode(field), textTooLongMessage(field)),
    )
    .nullable()
    .meta({ maxLength: WEBHOOK_TEXT_FIELDS[field].max, description: WEBHOOK_TEXT_FIELDS[field].about });
const textFields = byTextField(textField);
const secret = z
  .string()
  .refine(
    (text) => text.length >= 1,
    withCode('webhookSecretEmpty', 'Secret cannot be empty: send null to remove it.'),
  )
  .refine(
    (text) => text.length <= WEBHOOK_SECRET_MAX,
    withCode('webhookSecretTooLong', `Secret can have at most ${WEBHOOK_SECRET_MAX} characters.`),
  );

/**
 * The writable fields of a webhook (docs/api.md#rest-endpoints). Shapes and sizes are checked here; the
 * rules that need more than a shape (URL, events, headers, template, transport, record sources)
 * are pure functions the service runs for REST, MCP and the web app alike.
 */
export const webhookFields = {
  // The URL and header rules refuse control characters themselves, with their own customCodes
  // (webhookUrlInvalid, webhookHeaderNameInvalid, webhookHeaderValueInvalid: a value may hold a tab).
  // The URL rule measures the saved form (webhookUrlTooLong); the documents advertise its limit.
  url: ownCharacterRule(
    z.string().max(4096).meta({ maxLength: WEBHOOK_URL_MAX }),
    'src/shared/webhooks/webhook-url.ts',
  ),
  // The plain text fields (description…), described in src/shared/webhooks/webhook-fields.ts.
  ...textFields,
  events: z.array(z.string().max(100)).max(50),
  // Beside the catalog's events, not among them (docs/events.md#operational-events).
  operationalEvents: z.array(z.enum(OPERATIONAL_EVENTS)).max(OPERATIONAL_EVENTS.length),
  secret: secret.nullable().meta({ minLength: 1, maxLength: WEBHOOK_SECRET_MAX }),
  // The shape bounds only cap the request; the rules (with their customCodes) are checked by the
  // header and template rules, and the documents advertise those real limits.
  headers: ownCharacterRule(
    z
      .record(z.string().max(1000), z.string().max(10_000))
      .meta({
        maxProperties: WEBHOOK_HEADERS_MAX_COUNT,
        propertyNames: { maxLength: WEBHOOK_HEADER_NAME_MAX },
        additionalProperties: { type: 'string', maxLength: WEBHOOK_HEADER_VALUE_MAX },
      })
      .nullable(),
    'src/shared/webhooks/webhook-headers.ts',
  ),
  bodyTemplate: z.string().max(100_000).meta({ maxLength: BODY_TEMPLATE_MAX }).nullable(),
  enabled: z.boolean(),
  standardWebhooks: z.boolean(),
  // One refusal for every number out of its rule (0, -1, 2.5, 1001), with its own customCode; the
  // documents advertise the integer and its bounds.
  rateLimit: z
    .number()
    .refine(
      (perSecond) =>
        Number.isInteger(perSecond) &&
        perSecond >= WEBHOOK_RATE_LIMIT_MIN &&
        perSecond <= WEBHOOK_RATE_LIMIT_MAX,
      withCode('webhookRateLimitInvalid', WEBHOOK_RATE_LIMIT_RULE),
    )
    .meta({ type: 'integer', minimum: WEBHOOK_RATE_LIMIT_MIN, maximum: WEBHOOK_RATE_LIMIT_MAX })
    .nullable()
    .meta({ description: WEBHOOK_RATE_LIMIT_ABOUT }),
  expectedSchemaRevision: z.number().int().min(0),
  recordTrigger: recordTriggerSchema.nullable(),
  recordSources: recordSourcesSchema.nullable(),
  recordOwnerUserId: canonicalUuid(),
};

/**
 * Every request field is classified for ownership once (webhook-fields.ts): a field added above is a
 * type error here ("Property 'x' is missing") until it is classified there.
 */
export const FIELD_OWNERSHIP: Record<keyof typeof webhookFields, FieldOwnership> = WEBHOOK_FIELD_OWNERSHIP;

export const createWebhookBody = z
  .strictObject(webhookFields)
  .partial()
  .required({ url: true, events: true });
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

/** Only the fields sent change; null clears secret, headers, bodyTemplate and recordSources. */
export const updateWebhookBody = createWebhookBody.partial();
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

/**
 * `POST /api/v1/webhooks/{id}/rotate-secret` (issue 27, item 2): the new secret (generated when
 * omitted or null: whsec_ + base64 of 32 random bytes, never returned) and how long the one it
 * replaces keeps signing `webhook-signature`. `secret` has the shape of the webhook field, so the
 * flat MCP input stays one schema for create, update and rotate_secret.
 */
export const rotateSecretBody = z.strictObject({
  secret: secret.nullable().optional(),
  graceHours: z
    .int()
    .min(0)
    .max(SECRET_ROTATION_GRACE_HOURS_MAX)
    .optional()
    .meta({
      description: `Hours (0 to ${SECRET_ROTATION_GRACE_HOURS_MAX}, default ${SECRET_ROTATION_GRACE_HOURS_DEFAULT}) the replaced secret keeps signing webhook-signature beside the new one; 0 ends it at once.`,
    }),
});
export type RotateSecretBody = z.infer<typeof rotateSecretBody>;

/** `GET /api/v1/webhooks`: paging, search on the URL, creation and update date filters. */
export const listWebhooksQuery = pagingQuery.extend({
  search: z.string().max(200).optional(),
  createdFrom: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  createdTo: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  updatedFrom: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  updatedTo: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
});
export type ListWebhooksQuery = z.infer<typeof listWebhooksQuery>;
