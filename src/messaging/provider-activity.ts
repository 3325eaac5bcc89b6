import { z } from 'zod';
import { MESSAGING_EVENTS, type MessagingEventName } from '../shared/events/event-catalog';

/** The provider activity types, one per messaging event (`message.received` → `messaging.message.received`). */
export const ACTIVITY_TYPES = MESSAGING_EVENTS.map((event) => event.slice('messaging.'.length)) as [
  string,
  ...string[],
];

const providerId = z.string().min(1).max(200);

/**
 * What a provider sends: its own event id (replays are ignored), the activity type, and provider
 * ids only. The schema is strict: anything else (a message text, a CRM record) is refused, since
 * messaging events "embed no CRM records" (docs/messaging.md#messaging-events).
 */
export const providerActivitySchema = z.strictObject({
  eventId: providerId,
  type: z.enum(ACTIVITY_TYPES),
  occurredAt: z.iso.datetime({ offset: true }).optional(),
  entityId: providerId,
  providerMessageId: providerId.optional(),
  threadId: providerId.optional(),
  providerChatId: providerId.optional(),
  providerCalendarId: providerId.optional(),
  providerCalendarEventId: providerId.optional(),
  providerRelationId: providerId.optional(),
  providerReactionId: providerId.optional(),
});
export type ProviderActivity = z.infer<typeof providerActivitySchema>;

export const eventNameOf = (type: string) => `messaging.${type}` as MessagingEventName;

/** The envelope's `data` of a messaging event: the ids of the activity and of its account. */
export function messagingEventData(
  activity: ProviderActivity,
  account: { id: string; provider: string },
): Record<string, string> {
  const { eventId: _providerEventId, type: _type, occurredAt: _occurredAt, ...ids } = activity;
  return { ...ids, connectedAccountId: account.id, provider: account.provider };
}
