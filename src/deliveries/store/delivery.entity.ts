import { Column, CreateDateColumn, Entity, UpdateDateColumn } from 'typeorm';
import type { TraceCarrier } from '../../tracing/trace-carrier';
import { WebhookRow } from './webhook-row';

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/** What a delivery is about ("Element"): the affected record, or a messaging event's provider entity. */
export type DeliveryElement = { typeId: string; recordId: string } | { entityId: string };

/** docs/deliveries.md#the-delivery-log. Retries update this row; a resend adds a new one. */
@Entity({ name: 'deliveries' })
export class Delivery extends WebhookRow {
  /** The event's id: retries and resends send it unchanged (the envelope's `id`). */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ type: 'text' })
  event: string;

  /** The target URL of the latest attempt (the webhook's URL at that time). */
  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'jsonb', nullable: true })
  element: DeliveryElement | null;

  @Column({ type: 'text' })
  /** `test`: a sample event sent by hand ("Send test event"). */
  trigger: 'event' | 'resend' | 'test';

  @Column({ name: 'resend_of', type: 'uuid', nullable: true })
  resendOf: string | null;

  /** The webhook's record-sources version when this delivery was made (resend rule). */
  @Column({ name: 'sources_version', type: 'integer', nullable: true })
  sourcesVersion: number | null;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'response_message', type: 'text', nullable: true })
  responseMessage: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'workflow_started_at', type: 'timestamptz', nullable: true })
  workflowStartedAt: Date | null;

  /** Since when its next attempt waits for capacity in the slow lane; null when it does not wait. */
  @Column({ name: 'waiting_since', type: 'timestamptz', nullable: true })
  waitingSince: Date | null;

  /**
   * The trace its workflow start continues: the W3C context of the record write that committed it,
   * kept only while tracing is on (docs/observability.md#where-a-trace-stops); otherwise null.
   */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext: TraceCarrier | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
