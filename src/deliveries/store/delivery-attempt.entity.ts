import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { HeaderPair } from '../../shared/deliveries/attempt-record';

/**
 * Where a send stands: `sending` is committed before the request leaves; a send a lost worker or
 * database left `sending` becomes `unknown` (issue 11); the others are the receiver's verdict.
 */
export type AttemptSendOutcome = 'sending' | 'unknown' | 'delivered' | 'retry' | 'failed';

/**
 * One request of one attempt of a delivery's schedule (docs/deliveries.md#what-was-sent-and-what-came-back).
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

  /** The request's headers as sent, secrets masked (src/shared/deliveries/attempt-record.ts); null: not sent or not recorded. */
  @Column({ name: 'request_headers', type: 'jsonb', nullable: true })
  requestHeaders: HeaderPair[] | null;

  /** The body as sent, when within the display limit and not erased. */
  @Column({ name: 'request_body', type: 'text', nullable: true })
  requestBody: string | null;

  @Column({ name: 'request_body_sha256', type: 'text', nullable: true })
  requestBodySha256: string | null;

  @Column({ name: 'request_body_bytes', type: 'integer', nullable: true })
  requestBodyBytes: number | null;

  /** When the record's permanent deletion erased the kept body. */
  @Column({ name: 'request_body_erased_at', type: 'timestamptz', nullable: true })
  requestBodyErasedAt: Date | null;

  /**
   * When the retention sweep dropped the kept request (headers, body, its SHA-256 and size) of an
   * attempt older than DELIVERY_ATTEMPT_DETAILS_DAYS; null while kept, or when none was.
   */
  @Column({ name: 'request_expired_at', type: 'timestamptz', nullable: true })
  requestExpiredAt: Date | null;

  /** The receiver's headers, capped, credentials masked; null: no answer or not recorded. */
  @Column({ name: 'response_headers', type: 'jsonb', nullable: true })
  responseHeaders: HeaderPair[] | null;

  /** How many of the receiver's headers were not kept (over the caps). */
  @Column({ name: 'response_headers_omitted', type: 'integer', nullable: true })
  responseHeadersOmitted: number | null;
}
