// Webhooks in the web app: event groups and labels, who may steer a webhook, the headers field,
// masks and date bounds (the dialog's draft and requests are webhook-draft.ts; the Deliveries
// page's filters are deliveries.ts). No React here: the pages and dialogs use these.
import {
  MESSAGING_EVENTS,
  OPERATIONAL_EVENTS,
  RECORD_EVENTS,
  RETIRED_EVENTS,
  DELIVERED_EVENTS,
  isRetiredEvent,
} from '../shared/events/event-catalog';
import { maySteerWebhook } from '../shared/webhooks/ownership-rule';
import { GENERATED_SECRET_BYTES, newWebhookSecret } from '../shared/webhooks/standard-webhooks';
import { parseHeaderLines } from '../shared/webhooks/webhook-headers';
import type { Session, WebhookView } from './api';

export { RETIRED_EVENTS, isRetiredEvent, parseHeaderLines };

/**
 * The dialog's event checkboxes: the catalog's 16 events (`events`), grouped as the spec lists them,
 * and the 3 operational ones of their own subscription (`operationalEvents`).
 */
export const EVENT_GROUPS: readonly {
  label: string;
  events: readonly string[];
  field: 'events' | 'operationalEvents';
}[] = [
  { label: 'Record', events: RECORD_EVENTS, field: 'events' },
  { label: 'Messaging', events: MESSAGING_EVENTS, field: 'events' },
  { label: 'Operational', events: OPERATIONAL_EVENTS, field: 'operationalEvents' },
];

/** The events the Deliveries filter offers: the catalog's and the operational ones. */
export const DELIVERED_EVENT_NAMES: readonly string[] = DELIVERED_EVENTS;

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

/** A strong signing secret, in the whsec_ form the standardwebhooks libraries take as it is. */
export const generateSecret = (): string =>
  newWebhookSecret(crypto.getRandomValues(new Uint8Array(GENERATED_SECRET_BYTES)));

/** The headers field of someone who may not see values: the names with masked values. */
export function maskedHeaderLines(names: readonly string[]): string {
  return names.map((name) => `${name}: ${MASK}`).join('\n');
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
