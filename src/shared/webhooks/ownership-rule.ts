import { AppError } from '../app-error';
import { normalizeWebhookUrl } from './webhook-url';
import { SENDING_FIELDS, type SendingField } from './webhook-fields';

/**
 * Issue 10, hole 1: record deliveries are redacted with the webhook's record owner's access, so
 * whoever changes where or how a webhook sends chooses who receives what the owner can read. On a
 * webhook whose record owner is someone else, only an administrator may change these fields.
 * Description stays editable by any role with Edit; delete stays with the Delete right (it sends
 * nothing anywhere). A webhook without a record owner (older imports) delivers no record data, so
 * it is nobody's: the role's rights alone apply. Which fields these are is said once, in
 * webhook-fields.ts (`sending`); each has its comparison in changedSendingFields below.
 */
export { SENDING_FIELDS, type SendingField };

/** The saved sending settings, with the secret and header values opened. */
export interface SendingSettings {
  url: string;
  headers: Record<string, string> | null;
  secret: string | null;
  bodyTemplate: string | null;
  recordTrigger: unknown;
  recordSources: unknown;
  events: readonly string[];
  operationalEvents: readonly string[];
  enabled: boolean;
  standardWebhooks: boolean;
  rateLimit: number | null;
  recordOwnerUserId: string | null;
}

/** The sending fields of a write (an UpdateWebhookBody; no import, so the web app can use this rule). */
export interface SendingInput {
  url?: string;
  headers?: Record<string, string> | null;
  secret?: string | null;
  bodyTemplate?: string | null;
  recordTrigger?: unknown;
  recordSources?: unknown;
  events?: string[];
  operationalEvents?: string[];
  enabled?: boolean;
  standardWebhooks?: boolean;
  rateLimit?: number | null;
  recordOwnerUserId?: string;
  /** Not a sending field: open to every role with Edit. */
  description?: string | null;
}

export interface WebhookEditor {
  userId: string;
  isAdmin: boolean;
}

/** True when `editor` may change where or how the webhook sends. */
export function maySteerWebhook(editor: WebhookEditor, recordOwnerUserId: string | null): boolean {
  return editor.isAdmin || recordOwnerUserId === null || recordOwnerUserId === editor.userId;
}

/**
 * docs/api.md#permissions: "Only the record's webhook owner or an administrator can resend a record
 * event delivery." Retry now brings such a delivery's next attempt forward under the same rule. A
 * webhook without a record owner leaves it to administrators.
 */
export function maySendRecordDeliveryAgain(editor: WebhookEditor, recordOwnerUserId: string | null): boolean {
  return editor.isAdmin || (recordOwnerUserId !== null && recordOwnerUserId === editor.userId);
}

/** Keys in a stable order, so `{a, b}` and `{b, a}` compare equal. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value ?? null;
}
/** Equal as JSON, whatever the key order (a jsonb column gives its keys back in its own order). */
export const sameSetting = (a: unknown, b: unknown) =>
  JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
const same = sameSetting;
const sameSet = (a: readonly string[], b: readonly string[]) =>
  same([...new Set(a)].sort(), [...new Set(b)].sort());

function sameUrl(sent: string, saved: string): boolean {
  try {
    return normalizeWebhookUrl(sent) === saved;
  } catch {
    return false; // not even a valid URL: certainly not the saved one
  }
}

/** The sending fields `input` would change; a field sent with the value it already has is no change. */
export function changedSendingFields(saved: SendingSettings, input: SendingInput): SendingField[] {
  const headers = (value: Record<string, string> | null | undefined) =>
    value && Object.keys(value).length ? value : null;
  const changed: Record<SendingField, boolean> = {
    url: input.url !== undefined && !sameUrl(input.url, saved.url),
    headers: input.headers !== undefined && !same(headers(input.headers), headers(saved.headers)),
    secret: input.secret !== undefined && input.secret !== saved.secret,
    bodyTemplate: input.bodyTemplate !== undefined && input.bodyTemplate !== saved.bodyTemplate,
    recordTrigger: input.recordTrigger !== undefined && !same(input.recordTrigger, saved.recordTrigger),
    recordSources: input.recordSources !== undefined && !same(input.recordSources, saved.recordSources),
    events: input.events !== undefined && !sameSet(input.events, saved.events),
    operationalEvents:
      input.operationalEvents !== undefined && !sameSet(input.operationalEvents, saved.operationalEvents),
    enabled: input.enabled !== undefined && input.enabled !== saved.enabled,
    standardWebhooks:
      input.standardWebhooks !== undefined && input.standardWebhooks !== saved.standardWebhooks,
    rateLimit: input.rateLimit !== undefined && input.rateLimit !== saved.rateLimit,
    recordOwnerUserId:
      input.recordOwnerUserId !== undefined && input.recordOwnerUserId !== saved.recordOwnerUserId,
  };
  return SENDING_FIELDS.filter((field) => changed[field]);
}

/** Refuses (403 authorization, `webhookOwnedByAnother`) a change a non-owner may not make. */
export function checkWebhookSteering(
  editor: WebhookEditor,
  saved: SendingSettings,
  input: SendingInput,
): void {
  if (maySteerWebhook(editor, saved.recordOwnerUserId)) return;
  const [first, ...more] = changedSendingFields(saved, input);
  if (first) throw webhookOwnedByAnother([first, ...more]);
}

/**
 * The refusal of a change to `fields` (403 authorization, `webhookOwnedByAnother`); a rotation of
 * the secret is refused with it whatever secret it sends, so the answer says nothing of the saved one.
 */
export function webhookOwnedByAnother(fields: readonly [SendingField, ...SendingField[]]): AppError {
  return new AppError('authorization', [
    {
      code: 'authorization',
      path: [fields[0]],
      message:
        'This webhook sends records as its record owner can read them: only its owner or an administrator ' +
        `can change where or how it sends (${fields.join(', ')}).`,
      customCode: 'webhookOwnedByAnother',
    },
  ]);
}
