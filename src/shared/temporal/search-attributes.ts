// The search attribute keys, names and types, that the workflows set and the clients (the starter,
// the namespace's registration, the dev server) use: taken by both sides as the Temporal SDK's
// `common` is, so they are plain data, the very `{ name, type }` of @temporalio/common's
// defineSearchAttributeKey, and src/shared stays free of imports (workflow sandbox and browser).

/** The search attribute types these keys use (values of @temporalio/common's SearchAttributeType). */
type KeyType = 'KEYWORD' | 'KEYWORD_LIST';

function defineSearchAttributeKey<T extends KeyType>(name: string, type: T): { name: string; type: T } {
  return { name, type };
}

// Search attributes every delivery workflow carries, so an operator can find any delivery in
// the Temporal Web UI by workspace, webhook, event or delivery
// (docs/deliveries.md#how-it-works-and-how-to-inspect-it).
export const WorkspaceIdKey = defineSearchAttributeKey('WorkspaceId', 'KEYWORD');
export const WebhookIdKey = defineSearchAttributeKey('WebhookId', 'KEYWORD');
export const EventNameKey = defineSearchAttributeKey('EventName', 'KEYWORD');
export const EventIdKey = defineSearchAttributeKey('EventId', 'KEYWORD');
export const DeliveryIdKey = defineSearchAttributeKey('DeliveryId', 'KEYWORD');
/** The delivery's latest status, updated after every attempt. */
export const DeliveryStatusKey = defineSearchAttributeKey('DeliveryStatus', 'KEYWORD');
/**
 * `slow` once an attempt of the delivery waits for, or runs in, the slow lane (its endpoint is not
 * healthy, or the fast lane had no room for it); `fast` again when a later attempt runs in the fast
 * lane. Unset: every attempt so far ran in the fast lane (docs/capacity.md).
 */
export const DeliveryLaneKey = defineSearchAttributeKey('DeliveryLane', 'KEYWORD');
/**
 * On an endpoint's held-deliveries workflow (workflows/held-deliveries.workflow.ts): the ids of the oldest
 * deliveries it holds, the next to start (at most HELD_IDS_SHOWN), so `HeldDeliveryIds = "<id>"`
 * finds the workflow that holds that delivery.
 */
export const HeldDeliveryIdsKey = defineSearchAttributeKey('HeldDeliveryIds', 'KEYWORD_LIST');

export const SEARCH_ATTRIBUTE_KEYS = [
  WorkspaceIdKey,
  WebhookIdKey,
  EventNameKey,
  EventIdKey,
  DeliveryIdKey,
  DeliveryStatusKey,
  DeliveryLaneKey,
  HeldDeliveryIdsKey,
];

/** The search attributes of a delivery workflow, from the delivery row's ids. */
export function deliverySearchAttributes(delivery: {
  workspaceId: string;
  webhookId: string;
  event: string;
  eventId: string;
  deliveryId: string;
}) {
  return [
    { key: WorkspaceIdKey, value: delivery.workspaceId },
    { key: WebhookIdKey, value: delivery.webhookId },
    { key: EventNameKey, value: delivery.event },
    { key: EventIdKey, value: delivery.eventId },
    { key: DeliveryIdKey, value: delivery.deliveryId },
  ];
}
