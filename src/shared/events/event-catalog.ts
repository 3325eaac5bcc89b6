import { RECORD_EVENTS, type RecordEventName } from './record-event-names';

// The record events are owned by the outbox entity (it stores them); re-exported so callers
// find the whole catalog here.
export { RECORD_EVENTS, type RecordEventName };

/** docs/messaging.md#messaging-events: the 11 events fired by inbound provider activity. */
export const MESSAGING_EVENTS = [
  'messaging.message.received',
  'messaging.message.updated',
  'messaging.message.deleted',
  'messaging.message.reaction',
  'messaging.email.received',
  'messaging.email.deleted',
  'messaging.chat.updated',
  'messaging.chat.deleted',
  'messaging.calendar.changed',
  'messaging.calendar_event.changed',
  'messaging.relation.created',
] as const;
export type MessagingEventName = (typeof MESSAGING_EVENTS)[number];

/**
 * docs/events.md#operational-events: the service's own news of a workspace's webhooks (issue 37).
 * Not in the catalog: a webhook receives them through its own subscription (`operationalEvents`).
 * About a webhook, never delivered to that webhook; `webhook.delivery.exhausted` is never emitted
 * for a delivery of one of these, so dead receivers of them cannot feed each other.
 */
export const OPERATIONAL_EVENTS = [
  'webhook.endpoint.failing',
  'webhook.endpoint.disabled',
  'webhook.delivery.exhausted',
] as const;
export type OperationalEventName = (typeof OPERATIONAL_EVENTS)[number];

const operationalEvents: ReadonlySet<string> = new Set(OPERATIONAL_EVENTS);
export const isOperationalEvent = (name: string): name is OperationalEventName => operationalEvents.has(name);

/**
 * docs/events.md#record-events: "A webhook subscribes to 16 events: 5 record events and 11
 * messaging events" (its `events`).
 */
export const WEBHOOK_EVENTS = [...RECORD_EVENTS, ...MESSAGING_EVENTS] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Every event the service POSTs: the catalog's 16, and the 3 operational ones a webhook may add. */
export const DELIVERED_EVENTS = [...WEBHOOK_EVENTS, ...OPERATIONAL_EVENTS] as const;
export type DeliveredEvent = (typeof DELIVERED_EVENTS)[number];

/**
 * docs/messaging.md#retired-legacy-events: "`<type>.created`, `<type>.updated`, `<type>.deleted`
 * for each type…".
 */
const RETIRED_TYPES = ['contact', 'organization', 'deal', 'service', 'task'] as const;
const RETIRED_ACTIONS = ['created', 'updated', 'deleted'] as const;
export type RetiredEvent = `${(typeof RETIRED_TYPES)[number]}.${(typeof RETIRED_ACTIONS)[number]}`;

/**
 * The 15 retired names. Nothing emits them and they cannot be selected; they exist so older
 * webhooks and delivery records stay readable (shown with a "(legacy)" marker).
 */
export const RETIRED_EVENTS: readonly RetiredEvent[] = RETIRED_TYPES.flatMap((type) =>
  RETIRED_ACTIONS.map((action): RetiredEvent => `${type}.${action}`),
);

const recordEvents: ReadonlySet<string> = new Set(RECORD_EVENTS);
const messagingEvents: ReadonlySet<string> = new Set(MESSAGING_EVENTS);
const retiredEvents: ReadonlySet<string> = new Set(RETIRED_EVENTS);

export const isRecordEvent = (name: string): name is RecordEventName => recordEvents.has(name);

export const isMessagingEvent = (name: string): name is MessagingEventName => messagingEvents.has(name);

/** True for a name that is kept only for reading old data; such deliveries cannot be resent. */
export const isRetiredEvent = (name: string): name is RetiredEvent => retiredEvents.has(name);
