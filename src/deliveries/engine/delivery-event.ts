import type { EntityManager } from 'typeorm';
import { StoredEvent } from '../../messaging/stored-event.entity';
import type { RecordAccess } from '../../record-model/record-access';
import { recordEventEnvelope, type EventEnvelope } from '../../records/record-envelope';
import { RecordEvent } from '../../records/record-event.entity';
import { redactRecordEventData, type RecordEventData } from '../../records/redaction';

/** The event a delivery carries: a record event from the outbox, or an event stored as sent. */
export type DeliveryEvent = { kind: 'record'; row: RecordEvent } | { kind: 'stored'; row: StoredEvent };

export async function loadDeliveryEvent(
  manager: EntityManager,
  workspaceId: string,
  eventId: string,
): Promise<DeliveryEvent | undefined> {
  const record = await manager.findOneBy(RecordEvent, { id: eventId, workspaceId });
  if (record) return { kind: 'record', row: record };
  return loadStoredEvent(manager, workspaceId, eventId);
}

/** A messaging (or legacy) event, stored as sent. */
export async function loadStoredEvent(
  manager: EntityManager,
  workspaceId: string,
  eventId: string,
): Promise<DeliveryEvent | undefined> {
  const stored = await manager.findOneBy(StoredEvent, { id: eventId, workspaceId });
  return stored ? { kind: 'stored', row: stored } : undefined;
}

/**
 * The payload as a reader may see it (docs/events.md#redaction; and deliveries,
 * with the webhook owner's access): a record event redacted by current access; a messaging (or
 * legacy) event as sent. An unreadable record gives `{}`.
 */
export function readablePayload(event: DeliveryEvent, access: RecordAccess): Record<string, unknown> {
  if (event.kind === 'stored') return event.row.data;
  return redactRecordEventData(event.row.data as unknown as RecordEventData, access) as Record<
    string,
    unknown
  >;
}

/** The standard envelope of the event with the payload given (docs/events.md#record-events). */
export function deliveryEnvelope(event: DeliveryEvent, data: Record<string, unknown>): EventEnvelope {
  if (event.kind === 'record') return recordEventEnvelope(event.row, data);
  // Messaging events have no actor: they come from the provider, not from a person.
  return {
    event: event.row.event,
    id: event.row.id,
    timestamp: event.row.occurredAt.toISOString(),
    companyId: event.row.workspaceId,
    actorId: null,
    data,
  };
}
