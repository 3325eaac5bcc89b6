// The webhook dialog's draft of a webhook and the requests it leads to (only what changed,
// docs/api.md#webhook-rules). No React here: the dialog and its parts use these.
import { isOperationalEvent, isRetiredEvent } from '../shared/events/event-catalog';
import { SECRET_ROTATION_GRACE_HOURS_MAX, WEBHOOK_SECRET_MAX } from '../shared/limits';
import {
  WEBHOOK_RATE_LIMIT_MAX,
  WEBHOOK_RATE_LIMIT_MIN,
  WEBHOOK_RATE_LIMIT_RULE,
} from '../shared/webhooks/send-rate';
import {
  TEXT_FIELD_NAMES,
  byTextField,
  WEBHOOK_TEXT_FIELDS,
  textTooLongMessage,
  type WebhookTextFieldName,
} from '../shared/webhooks/webhook-fields';
import { parseHeaderLines } from '../shared/webhooks/webhook-headers';
import type { SecretRotation, WebhookCreate, WebhookSecrets, WebhookView, WebhookWrite } from './api';
import {
  NO_RECORD_SETTINGS,
  recordSettingsCreate,
  recordSettingsOf,
  recordSettingsUpdate,
  type RecordSettingsDraft,
} from './record-sources';
import { MASK, headerLines, isRecordEvent, maskedHeaderLines } from './webhooks';

export type WebhookDraft = {
  url: string;
  events: string[];
  /** The operational events it also receives (docs/events.md#operational-events). */
  operationalEvents: string[];
  enabled: boolean;
  secret: string;
  /** Standard Webhooks headers on every delivery, beside X-Webhook-Signature. */
  standardWebhooks: boolean;
  headers: string;
  bodyTemplate: string;
  /** Most deliveries per second, as typed; empty: no limit (docs/deliveries.md#rate-limit). */
  rateLimit: string;
  /** recordTrigger or recordSources (src/web/record-sources.ts). */
  record: RecordSettingsDraft;
} & {
  /** The plain text fields of src/shared/webhooks/webhook-fields.ts (description…), as typed. */
  [Field in WebhookTextFieldName]: string;
};

export const EMPTY_DRAFT: WebhookDraft = {
  url: '',
  ...byTextField(() => ''),
  events: [],
  operationalEvents: [],
  enabled: true,
  secret: '',
  // On for new webhooks; left without a secret, the service generates one (read it here after).
  standardWebhooks: true,
  headers: '',
  bodyTemplate: '',
  rateLimit: '',
  record: NO_RECORD_SETTINGS,
};

/**
 * The draft of a saved webhook. `secrets` are the saved values (people with Edit); without them
 * the secret and header values read as `********`.
 */
export function draftOfWebhook(webhook: WebhookView, secrets: WebhookSecrets | undefined): WebhookDraft {
  return {
    url: webhook.url,
    ...byTextField((field) => webhook[field] ?? ''),
    events: [...webhook.events],
    operationalEvents: [...webhook.operationalEvents],
    enabled: webhook.enabled,
    secret: secrets ? (secrets.secret ?? '') : webhook.hasSecret ? MASK : '',
    standardWebhooks: webhook.standardWebhooks,
    headers: secrets ? headerLines(secrets.headers) : maskedHeaderLines(webhook.headerNames),
    bodyTemplate: webhook.bodyTemplate ?? '',
    rateLimit: webhook.rateLimit === null ? '' : String(webhook.rateLimit),
    record: recordSettingsOf(webhook),
  };
}

/** A text field's input in the dialog: `webhook-description`, `webhook-some-note` (kebab case). */
export const textFieldTestId = (field: WebhookTextFieldName) =>
  `webhook-${field.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** A form value that cannot be sent, with the message to show. */
export class WebhookDraftError extends Error {
  override name = 'WebhookDraftError';
}

export const EMPTIED_SECRET_MESSAGE =
  'The Secret cannot be emptied here. To remove it, update the webhook through the API or MCP with ' +
  '"secret": null, or delete the webhook and create it again.';
export const EMPTIED_TEMPLATE_MESSAGE =
  'The Body template cannot be emptied here. To remove it, update the webhook through the API or MCP ' +
  'with "bodyTemplate": null, or delete the webhook and create it again.';

function sameHeaders(a: Record<string, string> | null, b: Record<string, string> | null): boolean {
  const left = Object.entries(a ?? {});
  const right = Object.entries(b ?? {});
  return (
    left.length === right.length &&
    left.every(([name, value], index) => {
      const other = right[index];
      return other !== undefined && other[0] === name && other[1] === value;
    })
  );
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** Checks what the server would refuse anyway; `events` only when they are sent. */
function checkDraft(draft: WebhookDraft, events = true): void {
  if (!draft.url.trim()) throw new WebhookDraftError('Enter the URL the deliveries go to.');
  for (const field of TEXT_FIELD_NAMES) {
    if (draft[field].length > WEBHOOK_TEXT_FIELDS[field].max) {
      throw new WebhookDraftError(textTooLongMessage(field));
    }
  }
  if (events && !draft.events.some((event) => !isRetiredEvent(event))) {
    throw new WebhookDraftError('Choose at least one event.');
  }
  if (draft.secret.length > WEBHOOK_SECRET_MAX) {
    throw new WebhookDraftError(`Secret can have at most ${WEBHOOK_SECRET_MAX} characters.`);
  }
  rateLimitOf(draft);
}

/** The draft's rate limit as the request takes it: null when empty; refused unless a whole number in bounds. */
function rateLimitOf(draft: WebhookDraft): number | null {
  const typed = draft.rateLimit.trim();
  if (typed === '') return null;
  const perSecond = Number(typed);
  if (
    !Number.isInteger(perSecond) ||
    perSecond < WEBHOOK_RATE_LIMIT_MIN ||
    perSecond > WEBHOOK_RATE_LIMIT_MAX
  ) {
    throw new WebhookDraftError(WEBHOOK_RATE_LIMIT_RULE.replace('null for none', 'empty for none'));
  }
  return perSecond;
}

/** The events to send: retired names cannot be selected, so a changed list leaves them out. */
const selectable = (events: readonly string[]) => events.filter((event) => !isRetiredEvent(event));

/** The draft's operational events as the request takes them. */
const operational = (draft: WebhookDraft) => draft.operationalEvents.filter(isOperationalEvent);

/** What a field's sending may read beside the draft. */
type SendContext = {
  /** The model's schema revision the dialog read, sent with record settings. */
  schemaRevision: number | undefined;
};
type UpdateContext = SendContext & { webhook: WebhookView; initial: WebhookDraft };

/**
 * How the dialog sends one field of a webhook request: its value in a new webhook's request, and
 * in an update when the person changed it (undefined: not sent; each may refuse the draft).
 */
type DialogField<Field extends keyof WebhookCreate> = {
  create: (draft: WebhookDraft, context: SendContext) => WebhookCreate[Field] | undefined;
  update: (draft: WebhookDraft, context: UpdateContext) => WebhookWrite[Field] | undefined;
};

/** A plain text field: sent when not blank; an update clears it with null. */
const textField = (field: WebhookTextFieldName): DialogField<WebhookTextFieldName> => ({
  create: (draft) => (draft[field].trim() ? draft[field] : undefined),
  update: (draft, { initial }) =>
    draft[field] === initial[field] ? undefined : draft[field].trim() ? draft[field] : null,
});
const recordField = <Field extends 'recordTrigger' | 'recordSources'>(field: Field) => ({
  create: (draft: WebhookDraft) => recordSettingsCreate(draft.record)[field],
  update: (draft: WebhookDraft, { initial }: UpdateContext) =>
    recordSettingsUpdate(initial.record, draft.record)?.[field],
});

/**
 * Every field of a webhook request (webhooks.schemas.ts) as the dialog sends it, or why it has
 * none. createOf and updateOf send exactly what these say, so a field listed here is sent by
 * construction, and a field added to the schema fails the web app's type check
 * (`npm run typecheck`) until it is listed. The plain text fields come from webhook-fields.ts.
 */
export const DIALOG_FIELDS: {
  readonly [Field in keyof WebhookCreate]-?: DialogField<Field> | { notInDialog: string };
} = {
  url: {
    create: (draft) => draft.url.trim(),
    update: (draft, { initial }) => (draft.url.trim() !== initial.url ? draft.url.trim() : undefined),
  },
  // One DialogField per text field (a mapped type: byTextField's one value type would join their names).
  ...(byTextField(textField) as { [Field in WebhookTextFieldName]: DialogField<Field> }),
  events: {
    create: (draft) => selectable(draft.events),
    update: (draft, { initial }) =>
      sameSet(draft.events, initial.events) ? undefined : selectable(draft.events),
  },
  operationalEvents: {
    create: (draft) => (draft.operationalEvents.length ? operational(draft) : undefined),
    update: (draft, { initial }) =>
      sameSet(draft.operationalEvents, initial.operationalEvents) ? undefined : operational(draft),
  },
  enabled: {
    create: (draft) => draft.enabled,
    update: (draft, { initial }) => (draft.enabled !== initial.enabled ? draft.enabled : undefined),
  },
  secret: {
    create: (draft) => (draft.secret !== '' ? draft.secret : undefined),
    update: (draft, { initial, webhook }) => {
      if (draft.secret === initial.secret) return undefined;
      if (draft.secret === '' && webhook.hasSecret) throw new WebhookDraftError(EMPTIED_SECRET_MESSAGE);
      return draft.secret !== '' ? draft.secret : undefined;
    },
  },
  standardWebhooks: {
    create: (draft) => draft.standardWebhooks,
    update: (draft, { initial }) =>
      draft.standardWebhooks !== initial.standardWebhooks ? draft.standardWebhooks : undefined,
  },
  headers: {
    create: (draft) => {
      const headers = parseHeaderLines(draft.headers);
      return headers && Object.keys(headers).length ? headers : undefined;
    },
    update: (draft, { initial }) => {
      if (draft.headers === initial.headers) return undefined;
      const after = parseHeaderLines(draft.headers);
      if (sameHeaders(parseHeaderLines(initial.headers), after)) return undefined;
      return after && Object.keys(after).length ? after : null;
    },
  },
  bodyTemplate: {
    create: (draft) => (draft.bodyTemplate.trim() ? draft.bodyTemplate : undefined),
    update: (draft, { initial, webhook }) => {
      if (draft.bodyTemplate === initial.bodyTemplate) return undefined;
      if (draft.bodyTemplate.trim()) return draft.bodyTemplate;
      if (webhook.bodyTemplate !== null) throw new WebhookDraftError(EMPTIED_TEMPLATE_MESSAGE);
      return undefined;
    },
  },
  rateLimit: {
    create: (draft) => rateLimitOf(draft) ?? undefined,
    update: (draft, { initial }) =>
      rateLimitOf(draft) !== rateLimitOf(initial) ? rateLimitOf(draft) : undefined,
  },
  recordTrigger: recordField('recordTrigger'),
  recordSources: recordField('recordSources'),
  // The revision of the model the dialog read, with record settings.
  expectedSchemaRevision: {
    create: (draft, { schemaRevision }) =>
      selectable(draft.events).some(isRecordEvent) ? schemaRevision : undefined,
    update: (draft, { initial, schemaRevision }) =>
      recordSettingsUpdate(initial.record, draft.record) ? schemaRevision : undefined,
  },
  recordOwnerUserId: { notInDialog: 'chosen through the API or MCP; the dialog names the record owner' },
};

type Sent = Record<string, unknown>;
/** The fields the dialog sends, each with its DialogField. */
const SENT = Object.entries(DIALOG_FIELDS).flatMap(([field, send]) =>
  'notInDialog' in send ? [] : [[field, send as DialogField<keyof WebhookCreate>] as const],
);

/** The body of `POST /app/api/webhooks` for a new webhook's draft. */
export function createOf(draft: WebhookDraft, schemaRevision: number | undefined): WebhookCreate {
  checkDraft(draft);
  const write: Sent = {};
  for (const [field, send] of SENT) {
    const value = send.create(draft, { schemaRevision });
    if (value !== undefined) write[field] = value;
  }
  return write as WebhookCreate;
}

/**
 * The body of `PATCH /app/api/webhooks/:id`: only the fields the person changed from `initial`.
 * An emptied Secret or Body template is refused (docs/api.md#body-template); an emptied
 * headers field sends `headers: null` (docs/api.md#custom-headers). Undefined when nothing changed.
 */
export function updateOf(
  webhook: WebhookView,
  initial: WebhookDraft,
  draft: WebhookDraft,
  schemaRevision: number | undefined,
): WebhookWrite | undefined {
  checkDraft(draft, !sameSet(draft.events, initial.events));
  const write: Sent = {};
  for (const [field, send] of SENT) {
    const value = send.update(draft, { webhook, initial, schemaRevision });
    if (value !== undefined) write[field] = value;
  }
  return Object.keys(write).length ? (write as WebhookWrite) : undefined;
}

/**
 * The body of `POST /app/api/webhooks/:id/rotate-secret` for the Rotate secret dialog: the new
 * secret as typed (or generated there) and the grace period in whole hours, 0 to 24. Refuses what
 * the server would refuse; the current secret is left for the server to compare.
 */
export function secretRotationOf(secret: string, graceHours: string): SecretRotation {
  if (secret === '') throw new WebhookDraftError('Enter the new secret, or generate one.');
  if (secret.length > WEBHOOK_SECRET_MAX) {
    throw new WebhookDraftError(`Secret can have at most ${WEBHOOK_SECRET_MAX} characters.`);
  }
  const hours = graceHours.trim() === '' ? Number.NaN : Number(graceHours);
  if (!Number.isInteger(hours) || hours < 0 || hours > SECRET_ROTATION_GRACE_HOURS_MAX) {
    throw new WebhookDraftError(
      `The grace period is a whole number of hours from 0 to ${SECRET_ROTATION_GRACE_HOURS_MAX}.`,
    );
  }
  return { secret, graceHours: hours };
}
