import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An event kept as it was sent: a messaging event (only while a webhook subscribes to it) or the
 * event of an imported legacy delivery. Deliveries of these read the payload as is.
 */
@Entity({ name: 'stored_events' })
export class StoredEvent {
  /** The event id of the envelope. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'text' })
  /** `test`: the sample event of a "Send test event", stored for its one delivery. */
  kind: 'messaging' | 'legacy' | 'test';

  @Column({ type: 'text' })
  event: string;

  @Column({ name: 'connected_account_id', type: 'uuid', nullable: true })
  connectedAccountId: string | null;

  @Column({ name: 'provider_event_id', type: 'text', nullable: true })
  providerEventId: string | null;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;
}
