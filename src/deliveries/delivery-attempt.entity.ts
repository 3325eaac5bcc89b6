import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Where a send stands: `sending` is committed before the request leaves; a send a lost worker or
 * database left `sending` becomes `unknown` (issue 11); the others are the receiver's verdict.
 */
export type AttemptSendOutcome = 'sending' | 'unknown' | 'delivered' | 'retry' | 'failed';

/**
 * One request of one attempt of a delivery's schedule (spec.md, Event Details attempt history).
 * An interrupted attempt's re-run is a further `send` of the same attempt.
 */
@Entity({ name: 'delivery_attempts' })
export class DeliveryAttempt {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId: string;

  @PrimaryColumn({ type: 'integer' })
  attempt: number;

  @PrimaryColumn({ type: 'integer' })
  send: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  /** Empty until the receiver answered (or the send was given up as unknown). */
  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs: number | null;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'response_message', type: 'text', nullable: true })
  responseMessage: string | null;

  @Column({ type: 'text' })
  outcome: AttemptSendOutcome;
}
