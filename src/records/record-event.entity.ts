import { Column, Entity } from 'typeorm';
import { OutboxRow } from '../db/outbox-row';

import type { RecordEventName } from '../shared/events/record-event-names';

export { RECORD_EVENTS, type RecordEventName } from '../shared/events/record-event-names';

/**
 * The outbox: one row per record event, inserted in the same transaction as the write that
 * caused it (docs/architecture.md#one-record-write-to-a-received-webhook, step 2).
 */
@Entity({ name: 'record_events' })
/** Its `data` is unredacted; redaction happens per reader. */
export class RecordEvent extends OutboxRow {
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

  /** Set when the record was erased and this event's field values were scrubbed. */
  @Column({ name: 'scrubbed_at', type: 'timestamptz', nullable: true })
  scrubbedAt: Date | null;
}
