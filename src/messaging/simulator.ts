import { randomUUID } from 'node:crypto';
import { signWebhookBody } from '../webhooks/signing/signature';
import { ACTIVITY_TYPES } from './provider-activity';

/** A plausible provider activity of one type, with fresh provider ids. */
export function sampleActivity(type: string): Record<string, string> {
  const id = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;
  const activity: Record<string, string> = {
    eventId: id('evt'),
    type,
    occurredAt: new Date().toISOString(),
    entityId: id('ent'),
  };
  if (type.startsWith('message.') || type.startsWith('email.')) {
    activity.providerMessageId = id('msg');
    activity.threadId = id('thr');
  }
  if (type === 'message.reaction') activity.providerReactionId = id('rx');
  if (type.startsWith('chat.')) activity.providerChatId = id('chat');
  if (type === 'calendar.changed') activity.providerCalendarId = id('cal');
  if (type === 'calendar_event.changed') activity.providerCalendarEventId = id('calevt');
  if (type === 'relation.created') activity.providerRelationId = id('rel');
  return activity;
}

/**
 * Plays a messaging provider (`npm run cli -- messaging simulate`): signs each activity with the
 * account's secret, as a provider would, and POSTs it to the service's provider endpoint.
 */
export async function simulateProvider(input: {
  baseUrl: string;
  accountId: string;
  signingSecret: string;
  types?: string[];
  replay?: boolean;
}): Promise<{ type: string; status: number; answer: unknown }[]> {
  const results = [];
  for (const type of input.types ?? ACTIVITY_TYPES) {
    const body = JSON.stringify(sampleActivity(type));
    const send = () =>
      fetch(`${input.baseUrl}/api/v1/messaging/inbound/${input.accountId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-provider-signature': signWebhookBody(input.signingSecret, body),
        },
        body,
      });
    let response = await send();
    if (input.replay) response = await send();
    results.push({ type, status: response.status, answer: await response.json().catch(() => undefined) });
  }
  return results;
}
