import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

// Search attributes every delivery workflow carries, so an operator can find any delivery in
// the Temporal Web UI by workspace, webhook, event or delivery (architecture.md, step 5).
export const WorkspaceIdKey = defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD);
export const WebhookIdKey = defineSearchAttributeKey('WebhookId', SearchAttributeType.KEYWORD);
export const EventNameKey = defineSearchAttributeKey('EventName', SearchAttributeType.KEYWORD);
export const EventIdKey = defineSearchAttributeKey('EventId', SearchAttributeType.KEYWORD);
export const DeliveryIdKey = defineSearchAttributeKey('DeliveryId', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTE_KEYS = [WorkspaceIdKey, WebhookIdKey, EventNameKey, EventIdKey, DeliveryIdKey];
