import { Column, Entity, PrimaryColumn } from 'typeorm';

import type { RecordEventName } from '../shared/record-event-names';

export { RECORD_EVENTS, type RecordEventName } from '../shared/record-event-names';

/**
 * The outbox: one row per record event, inserted in the same transaction as the write that
 * caused it (docs/architecture.md#one-record-write-to-a-received-webhook, step 2).
 */
@Entity({ name: 'record_events' })
export class RecordEvent {
  /** The event id of the envelope: retries and resends carry it unchanged. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'text' })
  event: RecordEventName;

  @Column({ name: 'cause_id', type: 'uuid' })
  causeId: string;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ name: 'type_id', type: 'uuid' })
  typeId: string;

  @Column({ name: 'record_id', type: 'uuid' })
  recordId: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  /** The envelope's `data`, unredacted; redaction happens per reader. */
  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  /** Set when the record was erased and this event's field values were scrubbed. */
  @Column({ name: 'scrubbed_at', type: 'timestamptz', nullable: true })
  scrubbedAt: Date | null;
}
