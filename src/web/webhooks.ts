// Webhooks in the web app: the dialog's draft of a webhook, the write it leads to (only what
// changed, docs/api.md#webhook-rules), the headers field, event labels and date
// bounds (the Deliveries page's filters are deliveries.ts). No React here: the pages and dialogs use these.
import {
  MESSAGING_EVENTS,
  RECORD_EVENTS,
  RETIRED_EVENTS,
  WEBHOOK_EVENTS,
  isRetiredEvent,
} from '../shared/events/event-catalog';
import {
  SECRET_ROTATION_GRACE_HOURS_MAX,
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_SECRET_MAX,
} from '../shared/limits';
import { maySteerWebhook } from '../shared/webhooks/ownership-rule';
import { parseHeaderLines } from '../shared/webhooks/webhook-headers';
import type {
  SecretRotation,
  Session,
  WebhookCreate,
  WebhookSecrets,
  WebhookView,
  WebhookWrite,
} from './api';

import {
  NO_RECORD_SETTINGS,
  recordSettingsCreate,
  recordSettingsOf,
  recordSettingsUpdate,
  type RecordSettingsDraft,
} from './record-sources';

export { RETIRED_EVENTS, isRetiredEvent, parseHeaderLines };

/** The dialog's event checkboxes, grouped as the spec lists them (16 events). */
export const EVENT_GROUPS: readonly { label: string; events: readonly string[] }[] = [
  { label: 'Record', events: RECORD_EVENTS },
  { label: 'Messaging', events: MESSAGING_EVENTS },
];

export const SELECTABLE_EVENTS: readonly string[] = WEBHOOK_EVENTS;

const recordEvents: ReadonlySet<string> = new Set(RECORD_EVENTS);
export const isRecordEvent = (event: string) => recordEvents.has(event);

/**
 * True when the signed-in person may change where or how `webhook` sends (its owner, an Admin, or
 * anyone on a webhook without a record owner); others with Edit change its description only.
 */
export function maySteer(webhook: WebhookView, session: Pick<Session, 'user' | 'permissions'>): boolean {
  return maySteerWebhook(
    { userId: session.user.id, isAdmin: session.permissions.manageWorkspace },
    webhook.recordOwnerUserId,
  );
}

/** What a value people cannot see reads as (docs/api.md#custom-headers). */
export const MASK = '********';

/** An event name as the lists show it: retired names carry a (legacy) marker. */
export function eventLabel(event: string, legacy = isRetiredEvent(event)): string {
  return legacy ? `${event} (legacy)` : event;
}

/** The headers field: one `Name: value` per line. */
export function headerLines(headers: Record<string, string> | null | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** A strong signing secret: 32 random bytes as 64 lowercase hex characters (within the 1–256 rule). */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The headers field of someone who may not see values: the names with masked values. */
export function maskedHeaderLines(names: readonly string[]): string {
  return names.map((name) => `${name}: ${MASK}`).join('\n');
}

export type WebhookDraft = {
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  secret: string;
  /** Standard Webhooks headers on every delivery, beside X-Webhook-Signature. */
  standardWebhooks: boolean;
  headers: string;
  bodyTemplate: string;
  /** recordTrigger or recordSources (src/web/record-sources.ts). */
  record: RecordSettingsDraft;
};

/**
 * Where the dialog has each field of a webhook request (webhooks.schemas.ts): the draft field that
 * holds it, or why it has none. Every field of the schema is named, so a field added there fails the
 * web app's type check (`npm run build`) until the dialog has it (its draft field, draftOfWebhook,
 * createOf, updateOf and its input in WebhookDialog.tsx) or says why not.
 */
export const DIALOG_FIELDS = {
  url: 'url',
  description: 'description',
  events: 'events',
  enabled: 'enabled',
  secret: 'secret',
  standardWebhooks: 'standardWebhooks',
  headers: 'headers',
  bodyTemplate: 'bodyTemplate',
  recordTrigger: 'record',
  recordSources: 'record',
  expectedSchemaRevision: {
    notInDraft: 'sent with record settings: the revision of the model the dialog read',
  },
  recordOwnerUserId: { notInDraft: 'chosen through the API or MCP; the dialog names the record owner' },
} as const satisfies Record<keyof WebhookCreate, keyof WebhookDraft | { notInDraft: string }>;

export const EMPTY_DRAFT: WebhookDraft = {
  url: '',
  description: '',
  events: [],
  enabled: true,
  secret: '',
  standardWebhooks: false,
  headers: '',
  bodyTemplate: '',
  record: NO_RECORD_SETTINGS,
};

/**
 * The draft of a saved webhook. `secrets` are the saved values (people with Edit); without them
 * the secret and header values read as `********`.
 */
export function draftOfWebhook(webhook: WebhookView, secrets: WebhookSecrets | undefined): WebhookDraft {
  return {
    url: webhook.url,
    description: webhook.description ?? '',
    events: [...webhook.events],
    enabled: webhook.enabled,
    secret: secrets ? (secrets.secret ?? '') : webhook.hasSecret ? MASK : '',
    standardWebhooks: webhook.standardWebhooks,
    headers: secrets ? headerLines(secrets.headers) : maskedHeaderLines(webhook.headerNames),
    bodyTemplate: webhook.bodyTemplate ?? '',
    record: recordSettingsOf(webhook),
  };
}

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
  if (draft.description.length > WEBHOOK_DESCRIPTION_MAX) {
    throw new WebhookDraftError(`Description can have at most ${WEBHOOK_DESCRIPTION_MAX} characters.`);
  }
  if (events && !draft.events.some((event) => !isRetiredEvent(event))) {
    throw new WebhookDraftError('Choose at least one event.');
  }
  if (draft.secret.length > WEBHOOK_SECRET_MAX) {
    throw new WebhookDraftError(`Secret can have at most ${WEBHOOK_SECRET_MAX} characters.`);
  }
}

/** The events to send: retired names cannot be selected, so a changed list leaves them out. */
const selectable = (events: readonly string[]) => events.filter((event) => !isRetiredEvent(event));

/** The body of `POST /app/api/webhooks` for a new webhook's draft. */
export function createOf(draft: WebhookDraft, schemaRevision: number | undefined): WebhookCreate {
  checkDraft(draft);
  const write: WebhookCreate = {
    url: draft.url.trim(),
    events: selectable(draft.events),
    enabled: draft.enabled,
  };
  if (draft.description.trim()) write.description = draft.description;
  if (draft.secret !== '') write.secret = draft.secret;
  if (draft.standardWebhooks) write.standardWebhooks = true;
  const headers = parseHeaderLines(draft.headers);
  if (headers && Object.keys(headers).length) write.headers = headers;
  if (draft.bodyTemplate.trim()) write.bodyTemplate = draft.bodyTemplate;
  Object.assign(write, recordSettingsCreate(draft.record));
  if (write.events.some(isRecordEvent) && schemaRevision !== undefined) {
    write.expectedSchemaRevision = schemaRevision;
  }
  return write;
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
  const eventsChanged = !sameSet(draft.events, initial.events);
  checkDraft(draft, eventsChanged);
  const write: WebhookWrite = {};
  if (draft.url.trim() !== initial.url) write.url = draft.url.trim();
  if (draft.description !== initial.description)
    write.description = draft.description.trim() ? draft.description : null;
  if (eventsChanged) write.events = selectable(draft.events);
  if (draft.enabled !== initial.enabled) write.enabled = draft.enabled;
  if (draft.secret !== initial.secret) {
    if (draft.secret === '' && webhook.hasSecret) throw new WebhookDraftError(EMPTIED_SECRET_MESSAGE);
    if (draft.secret !== '') write.secret = draft.secret;
  }
  if (draft.standardWebhooks !== initial.standardWebhooks) write.standardWebhooks = draft.standardWebhooks;
  if (draft.headers !== initial.headers) {
    const before = parseHeaderLines(initial.headers);
    const after = parseHeaderLines(draft.headers);
    if (!sameHeaders(before, after)) write.headers = after && Object.keys(after).length ? after : null;
  }
  if (draft.bodyTemplate !== initial.bodyTemplate) {
    if (!draft.bodyTemplate.trim()) {
      if (webhook.bodyTemplate !== null) throw new WebhookDraftError(EMPTIED_TEMPLATE_MESSAGE);
    } else {
      write.bodyTemplate = draft.bodyTemplate;
    }
  }
  const record = recordSettingsUpdate(initial.record, draft.record);
  if (record) {
    Object.assign(write, record);
    if (schemaRevision !== undefined) write.expectedSchemaRevision = schemaRevision;
  }
  return Object.keys(write).length ? write : undefined;
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

// ---- Dates -----------------------------------------------------------------------------------

/**
 * The ISO time that starts (or ends) a local calendar day `YYYY-MM-DD`: the lists show times in
 * the browser's time zone, so a date filter means that day as people read it.
 */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const time = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** True for an ISO 8601 date-time with its zone (a chart bar's bounds), as the server reads it. */
export const isIsoTime = (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
  !Number.isNaN(new Date(value).getTime());

/** A created-date filter's bound: a local calendar day, or an exact time (from a chart bar) as it is. */
export const createdBound = (value: string, end: boolean): string | undefined =>
  isIsoTime(value) ? value : dayBound(value, end);

/** `YYYY-MM-DD` of a time in the browser's time zone. */
export function localDay(time: string | Date): string {
  const date = typeof time === 'string' ? new Date(time) : time;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
