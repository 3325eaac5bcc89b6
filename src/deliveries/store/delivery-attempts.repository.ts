import type { EntityManager } from 'typeorm';
import { entityFromRow } from '../../db/entity-from-row';
import { columnsOf, NamedStatement, PreparedStatement } from '../../db/prepared';
import { DeliveryAttempt, type AttemptSendOutcome } from './delivery-attempt.entity';
import { Delivery, type DeliveryStatus } from './delivery.entity';
import type { HeaderPair } from '../../shared/deliveries/attempt-record';

/** One send of one attempt of the schedule. */
export interface SendRef {
  deliveryId: string;
  attempt: number;
  send: number;
  url: string;
  startedAt: Date;
}

/** The request as kept for Event Details (src/shared/deliveries/attempt-record.ts). */
export interface KeptRequest {
  headers: HeaderPair[];
  /** Null when over the display limit. */
  body: string | null;
  bodySha256: string;
  bodyBytes: number;
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
  /** The receiver's headers as kept; null without an answer. */
  responseHeaders: { headers: HeaderPair[]; omitted: number } | null;
}

/** The outcome of an attempt's send that completed. */
export interface CompletedSend {
  outcome: Extract<AttemptSendOutcome, 'delivered' | 'retry' | 'failed'>;
  statusCode: number | null;
  responseMessage: string | null;
}

/** An attempt's starting point (openAttempt). */
export type OpenedAttempt =
  { completed: CompletedSend } | { delivery: null } | { delivery: Delivery; send: number };

/**
 * The one owner of the attempt history (delivery_attempts), and of the delivery row's columns
 * that follow its latest send. Every write of a send is one statement (a data-modifying WITH, so
 * the attempt row and the delivery row change together without a BEGIN and COMMIT round trip); delivery attempts belong to a delivery, which names the workspace.
 */
export class DeliveryAttemptsRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * What an attempt starts from, in one statement: the attempt's latest send that completed (a
   * re-run returns its outcome and changes nothing), else the delivery row, with the sends an
   * earlier run left `sending` marked `unknown`, and the number of the next send.
   */
  async openAttempt(deliveryId: string, attempt: number, interruptedMessage: string): Promise<OpenedAttempt> {
    const [row] = await OPEN_ATTEMPT.run(this.manager, [deliveryId, attempt, interruptedMessage]);
    if (row!.completed_outcome) {
      return {
        completed: {
          outcome: row!.completed_outcome as CompletedSend['outcome'],
          statusCode: row!.completed_status_code as number | null,
          responseMessage: row!.completed_response_message as string | null,
        },
      };
    }
    if (!row!.id) return { delivery: null };
    return { delivery: entityFromRow(this.manager, Delivery, row!), send: row!.next_send as number };
  }

  /**
   * Commits the send's row before the request leaves, with the delivery shown as Sending; the
   * request as kept goes in the same statement (no extra round trip on the delivery path). The
   * event row is read with a key-share lock, so a permanent deletion racing this send cannot leave
   * the record's values behind: its scrub (which locks the event FOR UPDATE, then erases kept
   * bodies) either waits for this row to commit and then erases its body, or committed first and
   * this row keeps no body (`request_body_erased_at` set).
   */
  async startSend(send: SendRef, request: KeptRequest, eventId: string): Promise<void> {
    // One statement (atomic on its own): the send's row and the delivery shown as Sending.
    await START_SEND.run(this.manager, {
      ...send,
      ...request,
      headers: JSON.stringify(request.headers),
      eventId,
    });
  }

  /**
   * Writes a send's outcome to its row (inserting it for a delivery that was not sent) and, when it
   * is the attempt's latest send, to the delivery row, in one statement. A late answer of a send
   * already marked `unknown` still records what really happened.
   */
  async completeSend(send: SendRef, result: SendResult): Promise<void> {
    // One statement (atomic on its own). The delivery row follows only the attempt's latest send:
    // the check for a later send reads the rows as they were before this statement, which is the
    // same, since this statement writes only this send.
    await COMPLETE_SEND.run(this.manager, {
      ...send,
      ...result,
      responseHeaders: result.responseHeaders ? JSON.stringify(result.responseHeaders.headers) : null,
      responseHeadersOmitted: result.responseHeaders?.omitted ?? null,
    });
  }

  /**
   * The delivery's next attempt waits for capacity in the slow lane (docs/capacity.md); the
   * attempt's first send clears it. Since the first deferral, not the latest.
   */
  async markWaiting(deliveryId: string): Promise<void> {
    await MARK_WAITING.run(this.manager, [deliveryId]);
  }

  /**
   * A record's permanent deletion erases its values everywhere they were kept
   * (docs/events.md#record-events: record.deletedPermanently): the bodies sent to webhooks for that
   * record go too; their SHA-256 and size stay, like an event's who and when.
   */
  async eraseBodiesOfRecord(workspaceId: string, recordId: string): Promise<number> {
    const [, count]: [unknown, number] = await this.manager.query(
      `UPDATE delivery_attempts a
          SET request_body = NULL, request_body_erased_at = now()
         FROM deliveries d
        WHERE a.delivery_id = d.id AND d.workspace_id = $1 AND d.element->>'recordId' = $2
          AND a.request_body_erased_at IS NULL AND a.request_body_sha256 IS NOT NULL`,
      [workspaceId, recordId],
    );
    return count;
  }

  /**
   * Drops the kept request (headers, body, its SHA-256 and size) of up to `limit` sends started
   * before `cutoff`, oldest first, and notes when; the rows and their outcomes stay (the retention
   * window, docs/deliveries.md). One short statement over the partial index of kept requests; rows
   * another sweep holds are skipped, not waited for. Returns how many it dropped.
   */
  async expireKeptRequests(cutoff: Date, limit: number): Promise<number> {
    const [{ count }] = (await this.manager.query(
      `WITH batch AS (
         SELECT delivery_id, attempt, send FROM delivery_attempts
          WHERE request_headers IS NOT NULL AND started_at < $1
          ORDER BY started_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       ), expired AS (
         UPDATE delivery_attempts a
            SET request_headers = NULL, request_body = NULL, request_body_sha256 = NULL,
                request_body_bytes = NULL, request_expired_at = now()
           FROM batch b
          WHERE a.delivery_id = b.delivery_id AND a.attempt = b.attempt AND a.send = b.send
         RETURNING 1
       )
       SELECT count(*)::int AS count FROM expired`,
      [cutoff, limit],
    )) as [{ count: number }];
    return count;
  }

  /** Every send of the delivery, in the order they were made. */
  async history(deliveryId: string): Promise<DeliveryAttempt[]> {
    return this.manager.find(DeliveryAttempt, {
      where: { deliveryId },
      order: { attempt: 'ASC', send: 'ASC' },
    });
  }
}

const OPEN_ATTEMPT = new PreparedStatement(
  (manager) =>
    `WITH completed AS (
         SELECT outcome, status_code, response_message FROM delivery_attempts
          WHERE delivery_id = $1 AND attempt = $2 AND outcome IN ('delivered', 'retry', 'failed')
          ORDER BY send DESC LIMIT 1
       ), closed AS (
         UPDATE delivery_attempts SET outcome = 'unknown', response_message = $3
          WHERE delivery_id = $1 AND attempt = $2 AND outcome = 'sending' AND NOT EXISTS (SELECT 1 FROM completed)
       )
       SELECT ${columnsOf(manager, Delivery, 'd')}, c.outcome AS completed_outcome, c.status_code AS completed_status_code,
              c.response_message AS completed_response_message,
              (SELECT coalesce(max(send), 0) + 1 FROM delivery_attempts WHERE delivery_id = $1 AND attempt = $2)
                AS next_send
         FROM (SELECT 1) AS one
         LEFT JOIN deliveries d ON d.id = $1
         LEFT JOIN completed c ON true`,
);

const START_SEND = new NamedStatement(
  [
    'deliveryId',
    'attempt',
    'send',
    'startedAt',
    'url',
    'headers',
    'body',
    'bodySha256',
    'bodyBytes',
    'eventId',
  ],
  `WITH erased AS (
         SELECT scrubbed_at FROM record_events WHERE id = $10::uuid FOR KEY SHARE
       ), sent AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, outcome,
                                        request_headers, request_body, request_body_sha256, request_body_bytes,
                                        request_body_erased_at)
         SELECT $1::uuid, $2::integer, $3::integer, $4::timestamptz, NULL, $5::text, 'sending', $6::jsonb,
                CASE WHEN erased.scrubbed_at IS NULL THEN $7::text END, $8::text, $9::integer, erased.scrubbed_at
           FROM (SELECT 1) AS one LEFT JOIN erased ON true
       )
       UPDATE deliveries SET status = 'sending', url = $5, attempts = $2, waiting_since = NULL, updated_at = now()
        WHERE id = $1`,
);

const MARK_WAITING = new PreparedStatement(
  `UPDATE deliveries SET waiting_since = coalesce(waiting_since, now()) WHERE id = $1`,
);

const COMPLETE_SEND = new NamedStatement(
  [
    'deliveryId',
    'attempt',
    'send',
    'startedAt',
    'durationMs',
    'url',
    'statusCode',
    'responseMessage',
    'outcome',
    'responseHeaders',
    'responseHeadersOmitted',
    'status',
    'nextAttemptAt',
  ],
  `WITH recorded AS (
         INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code,
                                        response_message, outcome, response_headers, response_headers_omitted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (delivery_id, attempt, send) DO UPDATE
           SET duration_ms = EXCLUDED.duration_ms, status_code = EXCLUDED.status_code,
               response_message = EXCLUDED.response_message, outcome = EXCLUDED.outcome,
               response_headers = EXCLUDED.response_headers,
               response_headers_omitted = EXCLUDED.response_headers_omitted
       )
       UPDATE deliveries
          SET status = $12, status_code = $7, response_message = $8, attempts = $2, next_attempt_at = $13,
              url = $6, waiting_since = NULL, updated_at = now()
        WHERE id = $1 AND attempts <= $2
          AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = $1 AND a.attempt = $2 AND a.send > $3)`,
);
