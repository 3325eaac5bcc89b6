// What each event of the catalog announces, written once (docs/events.md#record-events): the OpenAPI
// `webhooks` section describes each event with it, and the webhook dialog shows it beside each
// event's checkbox. Text with `code` spans, as the OpenAPI document's descriptions are written.
import { isRetiredEvent, type DeliveredEvent } from './event-catalog';

export const EVENT_DESCRIPTIONS: Readonly<Record<DeliveredEvent, string>> = {
  'record.created':
    'A record of a configured source type is created. `data.record.fields` holds its after-values.',
  'record.updated':
    'A field, assignment, identity or link of a record of a configured source type changes (a write that changes nothing emits nothing). Before and after values of what changed.',
  'record.deleted':
    'A record of a configured source type moves to the Trash. Before-values and the relationships it leaves; `afterVersion` is null.',
  'record.restored': 'A record is restored from the Trash. Its values again as after-values.',
  'record.deletedPermanently':
    'A record is deleted permanently (by hand, or 30 days after the Trash). The ref only; earlier events of the record lose their field values.',
  'messaging.message.received': 'A chat message or email is ingested.',
  'messaging.message.updated': 'An ingested message is updated.',
  'messaging.message.deleted': 'An ingested message is deleted.',
  'messaging.message.reaction': 'A reaction is added to a message.',
  'messaging.email.received': 'An email is ingested.',
  'messaging.email.deleted': 'An ingested email is deleted.',
  'messaging.chat.updated': 'A chat thread is updated.',
  'messaging.chat.deleted': 'A chat thread is deleted.',
  'messaging.calendar.changed': 'A connected calendar changes.',
  'messaging.calendar_event.changed': 'A calendar event changes.',
  'messaging.relation.created': 'A new provider relation is created.',
  'webhook.endpoint.failing':
    'Another webhook of the workspace has just turned Failing: several attempts in a row did not deliver. `data.webhook` names it, `data.endpoint` says why and since when. Once per Failing episode.',
  'webhook.endpoint.disabled':
    'The service disabled another webhook of the workspace: its endpoint failed every attempt for the auto-disable period, or answered 410 Gone. `data.disabled` says why and since when.',
  'webhook.delivery.exhausted':
    'A delivery of another webhook of the workspace failed for good: no automatic attempt is left (resend it by hand). Never emitted for deliveries of operational or test events.',
};

/** docs/messaging.md#retired-legacy-events: what an older webhook's type-specific event used to carry. */
const RETIRED_DESCRIPTION =
  'Retired: nothing emits it and it cannot be selected again. Its past deliveries carried the full record (created, deleted) or the record and its changes (updated).';

/** The description of any event name: the catalog's, the retired one's, or none for an unknown name. */
export function describeEvent(name: string): string | undefined {
  if (isRetiredEvent(name)) return RETIRED_DESCRIPTION;
  return Object.hasOwn(EVENT_DESCRIPTIONS, name) ? EVENT_DESCRIPTIONS[name as DeliveredEvent] : undefined;
}
