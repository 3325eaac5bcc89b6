import { In, type EntityManager } from 'typeorm';
import { DeliveryAttempt, type AttemptSendOutcome } from './delivery-attempt.entity';
import { Delivery, type DeliveryStatus } from './delivery.entity';

/** One send of one attempt of the schedule. */
export interface SendRef {
  deliveryId: string;
  attempt: number;
  send: number;
  url: string;
  startedAt: Date;
}

/** A send's end as its row and the delivery row record it. */
export interface SendResult {
  durationMs: number;
  status: DeliveryStatus;
  statusCode: number | null;
  responseMessage: string;
  outcome: Extract<AttemptSendOutcome, 'delivered' | 'retry' | 'failed'>;
  /** When the next attempt is due; null when none follows. */
  nextAttemptAt: Date | null;
}

/**
 * The one owner of the attempt history (delivery_attempts), and of the delivery row's columns
 * that follow its latest send. Every write of a send is one transaction of as few statements as
 * the delivery path allows; delivery attempts belong to a delivery, which names the workspace.
 */
export class DeliveryAttemptsRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The attempt's latest send that completed, if any (a re-run returns its outcome). */
  async completedSend(deliveryId: string, attempt: number): Promise<DeliveryAttempt | null> {
    return this.manager.findOne(DeliveryAttempt, {
      where: { deliveryId, attempt, outcome: In(['delivered', 'retry', 'failed']) },
      order: { send: 'DESC' },
    });
  }

  /** Marks the attempt's sends an earlier run left `sending` as `unknown`; the next send's number. */
  async closeInterruptedSends(deliveryId: string, attempt: number, message: string): Promise<number> {
    await this.manager.query(
      `UPDATE delivery_attempts SET outcome = 'unknown', response_message = $3
        WHERE delivery_id = $1 AND attempt = $2 AND outcome = 'sending'`,
      [deliveryId, attempt, message],
    );
    const [row]: { next: number }[] = await this.manager.query(
      `SELECT coalesce(max(send), 0) + 1 AS next FROM delivery_attempts WHERE delivery_id = $1 AND attempt = $2`,
      [deliveryId, attempt],
    );
    return row!.next;
  }

  /** Commits the send's row before the request leaves, with the delivery shown as Sending. */
  async startSend(send: SendRef): Promise<void> {
    await this.manager.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, outcome)
         VALUES ($1, $2, $3, $4, NULL, $5, 'sending')`,
        [send.deliveryId, send.attempt, send.send, send.startedAt, send.url],
      );
      await manager.update(
        Delivery,
        { id: send.deliveryId },
        { status: 'sending', url: send.url, attempts: send.attempt },
      );
    });
  }

  /**
   * Writes a send's outcome to its row (inserting it for a delivery that was not sent) and, when it
   * is the attempt's latest send, to the delivery row, in one transaction. A late answer of a send
   * already marked `unknown` still records what really happened.
   */
  async completeSend(send: SendRef, result: SendResult): Promise<void> {
    await this.manager.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code, response_message, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (delivery_id, attempt, send) DO UPDATE
           SET duration_ms = EXCLUDED.duration_ms, status_code = EXCLUDED.status_code,
               response_message = EXCLUDED.response_message, outcome = EXCLUDED.outcome`,
        [
          send.deliveryId,
          send.attempt,
          send.send,
          send.startedAt,
          result.durationMs,
          send.url,
          result.statusCode,
          result.responseMessage,
          result.outcome,
        ],
      );
      await manager.query(
        `UPDATE deliveries
            SET status = $4, status_code = $5, response_message = $6, attempts = $2, next_attempt_at = $7,
                url = $8, updated_at = now()
          WHERE id = $1 AND attempts <= $2
            AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = $1 AND a.attempt = $2 AND a.send > $3)`,
        [
          send.deliveryId,
          send.attempt,
          send.send,
          result.status,
          result.statusCode,
          result.responseMessage,
          result.nextAttemptAt,
          send.url,
        ],
      );
    });
  }

  /** Every send of the delivery, in the order they were made. */
  async history(deliveryId: string): Promise<DeliveryAttempt[]> {
    return this.manager.find(DeliveryAttempt, {
      where: { deliveryId },
      order: { attempt: 'ASC', send: 'ASC' },
    });
  }
}
