import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Search attributes every delivery workflow carries, so an operator can find any delivery in
// the Temporal Web UI by workspace, webhook, event or delivery
// (docs/deliveries.md#how-it-works-and-how-to-inspect-it).
export const WorkspaceIdKey = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const WebhookIdKey = defineSearchAttributeKey('WebhookId', SearchAttributeType.KEYWORD);
export const EventNameKey = defineSearchAttributeKey('EventName', SearchAttributeType.KEYWORD);
export const EventIdKey = defineSearchAttributeKey('EventId', SearchAttributeType.KEYWORD);
export const DeliveryIdKey = defineSearchAttributeKey('DeliveryId', SearchAttributeType.KEYWORD);
/** The delivery's latest status, updated after every attempt. */
export const DeliveryStatusKey = defineSearchAttributeKey('DeliveryStatus', SearchAttributeType.KEYWORD);
/**
 * `slow` once an attempt of the delivery waits for, or runs in, the slow lane (its endpoint is not
 * healthy, or the fast lane had no room for it); `fast` again when a later attempt runs in the fast
 * lane. Unset: every attempt so far ran in the fast lane (docs/capacity.md).
 */
export const DeliveryLaneKey = defineSearchAttributeKey('DeliveryLane', SearchAttributeType.KEYWORD);
/**
 * On an endpoint's held-deliveries workflow (held-deliveries.workflow.ts): the ids of the oldest
 * deliveries it holds, the next to start (at most HELD_IDS_SHOWN), so `HeldDeliveryIds = "<id>"`
 * finds the workflow that holds that delivery.
 */
export const HeldDeliveryIdsKey = defineSearchAttributeKey(
  'HeldDeliveryIds',
  SearchAttributeType.KEYWORD_LIST,
);

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
