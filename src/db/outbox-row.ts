import { Column, PrimaryColumn } from 'typeorm';

/**
 * An event waiting in an outbox table (record events, stored messaging and legacy events): what the
 * dispatcher reads from any of them. The columns are declared once; TypeORM gives them to each
 * entity that extends this class.
 */
export abstract class OutboxRow {
  /** The event id of the envelope: retries and resends carry it unchanged. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  /** The envelope's `data`. */
  @Column({ type: 'jsonb' })
  data: Record<string, unknown>;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;
}
