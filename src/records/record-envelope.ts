import type { RecordEvent } from './record-event.entity';

/** The standard envelope of every delivery (docs/events.md#record-events). */
export interface EventEnvelope {
  event: string;
  /** The event id: a retry and a resend carry the same id. */
  id: string;
  timestamp: string;
  /** The workspace id. */
  companyId: string;
  /** The user who caused the write (through the web app, an API key or a routine); null otherwise. */
  actorId: string | null;
  data: Record<string, unknown>;
}

/** The envelope of a record event, with `data` as given (already redacted for its reader). */
export function recordEventEnvelope(
  row: RecordEvent,
  data: Record<string, unknown> = row.data,
): EventEnvelope {
  return {
    event: row.event,
    id: row.id,
    timestamp: row.occurredAt.toISOString(),
    companyId: row.workspaceId,
    actorId: row.actorId,
    data,
  };
}
