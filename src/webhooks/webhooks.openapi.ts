import type { z } from 'zod';
import type { ComponentSchemas } from '../http/openapi/components';
import { answer, body, DELETED, type OperationSpec, pagedList, uuidParam } from '../http/openapi/operation';
import type { Check, Same } from '../http/view-schemas';
import { FILTER_CODES } from '../records/records.openapi';
import { OPERATIONAL_EVENTS, WEBHOOK_EVENTS } from '../shared/events/event-catalog';
import { recordSourceSchema, recordTriggerSchema } from './record-source-schemas';
import {
  webhookCreatedExample,
  webhookPageExample,
  webhookPageSchema,
  webhookViewExample,
  webhookViewSchema,
  type WebhookPage,
} from './webhook-view';
import {
  createWebhookBody,
  listWebhooksQuery,
  rotateSecretBody,
  updateWebhookBody,
} from './webhooks.schemas';
import { SECRET_ROTATION_GRACE_HOURS_DEFAULT, SECRET_ROTATION_GRACE_HOURS_MAX } from '../shared/limits';
import type { WebhooksService } from './webhooks.service';
import { TEXT_FIELD_NAMES, textTooLongCode } from '../shared/webhooks/webhook-fields';
import type { EncodedPage } from '../http/paging';

/** The rules every webhook save checks (docs/api.md#webhook-rules). */
const WEBHOOK_RULE_CODES = [
  'webhookUrlInvalid',
  'webhookUrlTooLong',
  'webhookUrlSchemeNotAllowed',
  'webhookUrlHostInvalid',
  'webhookUrlCredentialsNotAllowed',
  'webhookHeadersNeedHttps',
  ...TEXT_FIELD_NAMES.map(textTooLongCode),
  'webhookSecretEmpty',
  'webhookSecretTooLong',
  'webhookEventsRequired',
  'webhookEventUnknown',
  'webhookEventRetired',
  'webhookHeaderNameReserved',
  'webhookHeaderNameInvalid',
  'webhookHeaderNameTooLong',
  'webhookHeaderNameDuplicate',
  'webhookHeaderValueInvalid',
  'webhookHeaderValueTooLong',
  'webhookHeadersTooMany',
  'webhookHeadersTooLarge',
  'bodyTemplateTooLong',
  'bodyTemplateInvalidJson',
  'bodyTemplateNotObject',
  'bodyTemplatePlaceholderUnknown',
  'bodyTemplatePlaceholderOutsideString',
  'webhookRecordSourcesTooMany',
  'webhookRecordSourceConflict',
  'webhookOwnerNotMember',
  'webhookRecordTypeNotReadable',
  'webhookChangedFieldUnknown',
  'webhookFieldRestricted',
  'webhookMaskUnmatched',
  'webhookSourceEventNotSubscribed',
  'queryTypeIdInvalid',
  'querySearchTooLong',
  'queryTooManyFilters',
  ...FILTER_CODES,
];

/** The example of `POST /api/v1/webhooks`; the OpenAPI test posts it to the real service. */
export const createWebhookExample = {
  url: 'https://example.com/hooks/crm',
  description: 'New and changed deals to the billing system',
  events: ['record.created', 'record.updated'],
  secret: 'a-long-random-signing-secret',
  headers: { 'X-Billing-Token': 'token-for-the-receiver' },
  enabled: true,
  standardWebhooks: true,
} satisfies z.input<typeof createWebhookBody>;

/** Webhooks (their delivery log: deliveries.openapi.ts). */
export const WEBHOOK_OPERATIONS: OperationSpec[] = [
  pagedList({
    path: '/api/v1/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhooks, newest first',
    description: 'Search matches the URL; filters on creation and update dates.',
    tag: 'Webhooks',
    query: listWebhooksQuery,
    items: 'webhooks',
    page: webhookPageSchema,
    example: webhookPageExample,
  }),
  {
    method: 'post',
    path: '/api/v1/webhooks',
    operationId: 'createWebhook',
    summary: 'Create a webhook',
    description: `Needs Create on API & Webhooks. \`events\`: one or more of ${WEBHOOK_EVENTS.join(', ')}. \`operationalEvents\` (default none): any of ${OPERATIONAL_EVENTS.join(', ')}, news about the workspace's other webhooks. A URL without a scheme is saved with \`https://\`; custom headers need \`https://\` (or \`http://\` on localhost). \`recordTrigger\` or \`recordSources\` narrow the record events to lists of one type; only an Admin can choose another \`recordOwnerUserId\`. \`standardWebhooks\` (default true) adds the Standard Webhooks headers to every POST (then \`webhook-id\`, \`webhook-timestamp\` and \`webhook-signature\` are reserved header names); with it on and no \`secret\` sent, a secret is generated (\`whsec_\` + base64 of 32 random bytes, which the standardwebhooks libraries take as it is; never returned, read in the web app's dialog); \`secret: null\` creates an unsigned webhook.`,
    tag: 'Webhooks',
    body: body(createWebhookBody, createWebhookExample),
    success: answer(201, 'The new webhook.', webhookViewSchema, webhookCreatedExample),
    refusals: {
      400: WEBHOOK_RULE_CODES,
      403: ['webhookOwnerNotAllowed'],
      409: ['webhookSchemaRevisionStale'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{id}',
    operationId: 'getWebhook',
    summary: 'Read a webhook',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    success: answer(200, 'The webhook.', webhookViewSchema, webhookViewExample),
    refusals: { 404: ['webhookNotFound'] },
  },
  {
    method: 'patch',
    path: '/api/v1/webhooks/{id}',
    operationId: 'updateWebhook',
    summary: 'Update a webhook',
    description:
      'Needs Edit on API & Webhooks. Only the fields sent change; omitted headers keep their values; `null` clears secret, headers, bodyTemplate and recordSources. Send `expectedSchemaRevision` when the record trigger, sources or owner change. On a webhook whose record owner is someone else, only an Admin can change url, headers, secret, bodyTemplate, recordTrigger, recordSources, events, enabled, standardWebhooks or recordOwnerUserId (403 `webhookOwnedByAnother`); description stays open to Edit.',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    body: body(updateWebhookBody, { enabled: false, description: 'Paused during the billing migration' }),
    success: answer(200, 'The webhook.', webhookViewSchema, {
      ...webhookViewExample,
      enabled: false,
      description: 'Paused during the billing migration',
    }),
    refusals: {
      400: [...WEBHOOK_RULE_CODES, 'webhookSchemaRevisionRequired'],
      403: ['webhookOwnerNotAllowed', 'webhookOwnedByAnother'],
      404: ['webhookNotFound'],
      409: ['webhookSchemaRevisionStale'],
    },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret, with a grace period',
    description:
      `Needs Edit on API & Webhooks; on a webhook whose record owner is someone else, an Admin (403 \`webhookOwnedByAnother\`, whatever secret is sent). \`secret\` becomes the webhook's secret at once (omitted or null: a random \`whsec_\` one is generated, which the standardwebhooks libraries take as it is; like every secret it is never returned, and people with Edit read it in the web app's dialog). ` +
      `The secret it replaces keeps signing for \`graceHours\` (0 to ${SECRET_ROTATION_GRACE_HOURS_MAX}, default ${SECRET_ROTATION_GRACE_HOURS_DEFAULT}): during it \`webhook-signature\` (Standard Webhooks) carries two signatures, the new secret's then the old one's, so a receiver verifies with either while it switches; \`X-Webhook-Signature\` holds one signature, the old secret's until the grace ends and the new one's from then, so a receiver that checks only that header keeps verifying while it learns the new secret. ` +
      '`previousSecretExpiresAt` says until when. A rotation during a grace period drops the older secret; a `PATCH` of `secret` replaces it with no grace.',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    body: body(rotateSecretBody, { graceHours: 24 }),
    success: answer(200, 'The webhook, with `previousSecretExpiresAt`.', webhookViewSchema, {
      ...webhookViewExample,
      previousSecretExpiresAt: '2025-03-03T11:05:42.000Z',
    }),
    refusals: {
      400: ['webhookSecretEmpty', 'webhookSecretTooLong', 'webhookSecretUnchanged'],
      403: ['webhookOwnedByAnother'],
      404: ['webhookNotFound'],
    },
  },
  {
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Needs Delete on API & Webhooks.',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    success: DELETED,
    refusals: { 404: ['webhookNotFound'] },
  },
];

export const WEBHOOK_COMPONENTS: ComponentSchemas = {
  shared: { RecordTrigger: recordTriggerSchema, RecordSource: recordSourceSchema },
  requests: {
    CreateWebhookBody: createWebhookBody,
    UpdateWebhookBody: updateWebhookBody,
    RotateSecretBody: rotateSecretBody,
  },
  responses: { Webhook: webhookViewSchema, WebhookPage: webhookPageSchema },
};

/** Held equal to what the webhooks service answers. */
export type WebhookViewChecks = [
  Check<Same<EncodedPage<Awaited<ReturnType<WebhooksService['list']>>>, WebhookPage>>,
];
