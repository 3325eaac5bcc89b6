import { Column, Entity } from 'typeorm';
import { OutboxRow } from '../db/outbox-row';

/**
 * An event kept as it was sent: a messaging event (only while a webhook subscribes to it) or the
 * event of an imported legacy delivery. Deliveries of these read the payload as is.
 */
@Entity({ name: 'stored_events' })
export class StoredEvent extends OutboxRow {
  @Column({ type: 'text' })
  /** `test`: the sample event of a "Send test event", stored for its one delivery. */
  kind: 'messaging' | 'legacy' | 'test';

  @Column({ type: 'text' })
  event: string;

  @Column({ name: 'connected_account_id', type: 'uuid', nullable: true })
  connectedAccountId: string | null;

  @Column({ name: 'provider_event_id', type: 'text', nullable: true })
  providerEventId: string | null;
}
