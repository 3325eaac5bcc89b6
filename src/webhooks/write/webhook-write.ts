import type { EntityManager } from 'typeorm';
import { authorizationError, conflictError, ValidationError } from '../../shared/app-error';
import type { Actor } from '../../identity/actor';
import { loadActor } from '../../identity/actor';
import { loadModel } from '../../record-model/model.service';
import { recordAccessOf } from '../../record-model/record-access';
import { isRecordEvent } from '../../shared/events/event-catalog';
import { sameSetting } from '../../shared/webhooks/ownership-rule';
import type { WebhookTextFieldName } from '../../shared/webhooks/webhook-fields';
import { validateWebhookHeaders } from '../../shared/webhooks/webhook-headers';
import { normalizeWebhookUrl } from '../../shared/webhooks/webhook-url';
import { checkStandardHeaderNames } from '../../shared/webhooks/standard-webhooks';
import { validateBodyTemplate } from '../body-template';
import { checkWebhookEvents } from './events-rule';
import { checkRecordSettings } from '../record-sources';
import { checkTransportRule } from '../transport-rule';
import { writeTextFields } from './webhook-text-fields';
import type { Webhook, WebhooksRepository } from '../webhooks.repository';
import type { UpdateWebhookBody, webhookFields } from '../webhooks.schemas';

// A write of a webhook, for create and update alike: each sent field stored as its rule says, then
// every rule checked on the result (the service locks, saves and answers).

/** Where a write came from: MCP record subscriptions must name the schema revision they read. */
export type WebhookChannel = 'rest' | 'mcp' | 'web';

/** The fields applyWebhookWrite writes one by one; the plain text fields are written together (writeTextFields). */
type WebhookField = Exclude<keyof typeof webhookFields, WebhookTextFieldName>;
type Sent<Field extends WebhookField> = Exclude<UpdateWebhookBody[Field], undefined>;
/** The fields whose sent value fits the entity's column of the same name as it is. */
type CopyableField = {
  [Field in WebhookField]: Field extends keyof Webhook
    ? Sent<Field> extends Webhook[Field]
      ? Field
      : never
    : never;
}[WebhookField];

/**
 * How applyWebhookWrite writes each field of a webhook request (`webhookFields`, webhooks.schemas.ts):
 * `copy` stores the sent value as it is, in one loop after the rules; `own` is a line of its own in
 * applyWebhookWrite (normalized, sealed, held to a rule on the actor, or not stored as sent). Every field of the
 * schema is named, so a field added there is a type error here until it is placed, and `copy` is
 * allowed only where the entity has a column of that name that takes the sent value.
 */
const FIELD_WRITES: {
  readonly [Field in WebhookField]: Field extends CopyableField ? 'copy' | 'own' : 'own';
} = {
  url: 'own', // normalized (webhook-url.ts)
  events: 'own', // checked (events-rule.ts)
  operationalEvents: 'own', // without duplicates
  secret: 'own', // sealed
  headers: 'own', // checked, sealed, names kept apart
  bodyTemplate: 'copy', // after validateBodyTemplate
  enabled: 'own', // a change clears why the service disabled it
  rateLimit: 'copy', // its bounds are the schema's; every attempt reads it (docs/deliveries.md#rate-limit)
  standardWebhooks: 'copy', // then no custom header may take the scheme's names (checkStandardHeaderNames)
  recordTrigger: 'copy',
  recordSources: 'copy',
  recordOwnerUserId: 'own', // only an Admin chooses another member (webhookOwnerNotAllowed)
  expectedSchemaRevision: 'own', // checked against the record model; stored as schemaRevision
};
const COPIED_FIELDS = (Object.keys(FIELD_WRITES) as WebhookField[]).filter(
  (field): field is CopyableField => FIELD_WRITES[field] === 'copy',
);

/** Stores the sent value of a `copy` field (CopyableField: the sent value fits the column). */
function copySent<Field extends CopyableField>(
  webhook: Webhook,
  input: UpdateWebhookBody,
  field: Field,
): void {
  const value = input[field];
  if (value !== undefined) webhook[field] = value as Webhook[Field];
}

/** Applies the sent fields to `webhook`, then checks every rule on the result. */
export async function applyWebhookWrite(
  manager: EntityManager,
  webhooks: WebhooksRepository,
  actor: Actor,
  webhook: Webhook,
  input: UpdateWebhookBody,
  options: { channel: WebhookChannel; creating: boolean },
): Promise<void> {
  const before = {
    trigger: webhook.recordTrigger,
    sources: webhook.recordSources,
    owner: webhook.recordOwnerUserId,
  };
  if (input.url !== undefined) webhook.url = normalizeWebhookUrl(input.url);
  writeTextFields(webhook, input);
  if (input.events !== undefined) webhook.events = checkWebhookEvents(input.events);
  if (input.operationalEvents !== undefined)
    webhook.operationalEvents = [...new Set(input.operationalEvents)];
  // A new secret replaces the saved one at once, ending a rotation's grace; the saved value sent
  // again is no change and keeps it.
  if (input.secret !== undefined && input.secret !== webhooks.secretsOf(webhook).secret)
    webhooks.setSecret(webhook, input.secret);
  if (input.headers !== undefined) {
    const headers = input.headers && Object.keys(input.headers).length ? input.headers : null;
    if (headers) validateWebhookHeaders(headers);
    webhooks.setHeaders(webhook, headers);
  }
  if (input.bodyTemplate !== undefined && input.bodyTemplate !== null) {
    validateBodyTemplate(input.bodyTemplate);
  }
  if (input.recordOwnerUserId !== undefined && input.recordOwnerUserId !== webhook.recordOwnerUserId) {
    if (!actor.permissions.manageWorkspace && input.recordOwnerUserId !== actor.user.id) {
      throw authorizationError(
        'Only an administrator can choose another record owner.',
        'webhookOwnerNotAllowed',
      );
    }
    webhook.recordOwnerUserId = input.recordOwnerUserId;
  }
  if (input.enabled !== undefined && input.enabled !== webhook.enabled) {
    webhook.enabled = input.enabled;
    webhook.disabledReason = null;
    webhook.disabledAt = null;
  }
  // The fields stored as sent (FIELD_WRITES): after the rules above, which never read them.
  for (const field of COPIED_FIELDS) copySent(webhook, input, field);

  if (webhook.recordTrigger && webhook.recordSources) {
    throw ValidationError.of(
      'recordTrigger and recordSources cannot be combined.',
      'webhookRecordSourceConflict',
      ['recordSources'],
    );
  }
  checkTransportRule(webhook.url, webhook.headerNames.length > 0);
  if (webhook.standardWebhooks) checkStandardHeaderNames(webhook.headerNames);

  const subscribesToRecords = webhook.events.some(isRecordEvent);
  // Settings sent as read (in any key order, masks restored) are no change.
  const triggerChanged =
    !sameSetting(before.trigger, webhook.recordTrigger) ||
    !sameSetting(before.sources, webhook.recordSources) ||
    before.owner !== webhook.recordOwnerUserId;
  if (!subscribesToRecords || !(options.creating || triggerChanged || input.events !== undefined)) return;

  const model = await loadModel(manager, actor.workspace.id);
  const revisionRequired = options.creating ? options.channel === 'mcp' : triggerChanged;
  if (input.expectedSchemaRevision === undefined && revisionRequired) {
    throw ValidationError.of(
      'Send expectedSchemaRevision (from get_record_model or POST /api/v1/model/discover) with record subscriptions.',
      'webhookSchemaRevisionRequired',
      ['expectedSchemaRevision'],
    );
  }
  if (input.expectedSchemaRevision !== undefined && input.expectedSchemaRevision !== model.schemaRevision) {
    throw conflictError(
      `The record model changed (schema revision ${model.schemaRevision}, not ${input.expectedSchemaRevision}): read it again.`,
      'webhookSchemaRevisionStale',
      ['expectedSchemaRevision'],
    );
  }
  const owner = await loadActor(manager, actor.workspace.id, webhook.recordOwnerUserId ?? actor.user.id);
  if (!owner || owner.member.status !== 'active') {
    throw ValidationError.of(
      'The record owner must be an active member of the workspace.',
      'webhookOwnerNotMember',
      ['recordOwnerUserId'],
    );
  }
  checkRecordSettings(model, recordAccessOf(owner.role, model), webhook);
  if (options.creating || triggerChanged) {
    webhook.schemaRevision = model.schemaRevision;
    if (!options.creating) webhook.sourcesVersion += 1;
  }
}
