import { STATUS_CODES } from 'node:http';
import type { DataSource } from 'typeorm';
import { loadActor } from '../identity/actor';
import { DELIVERY_TIMEOUT_MS, FAILED_BEFORE_SENDING_STATUS, RENDERED_BODY_MAX } from '../shared/limits';
import type { Logger } from '../logger';
import { loadRecordAccess } from '../record-model/record-access';
import type { SecretBox } from '../security/secret-box';
import { renderBodyTemplate } from '../webhooks/body-template';
import { transportRuleViolation } from '../webhooks/transport-rule';
import { Webhook } from '../webhooks/webhook.entity';
import { deliveryEnvelope, loadDeliveryEvent, readablePayload } from './delivery-event';
import { Delivery, type DeliveryStatus } from './delivery.entity';
import { deliveryHeaders } from './delivery-request';
import type { HttpSender } from './http-sender';
import { classifyAttempt, hasAttemptsLeft, retryDelayMs, type AttemptResult } from '../shared/retry-policy';

/** What the delivery workflow learns from one attempt. */
export interface AttemptOutcome {
  /** No further attempt: delivered, failed for good, or out of attempts. */
  done: boolean;
  status: DeliveryStatus;
  statusCode: number | null;
  responseMessage: string;
}

/** Messaging events are sent as stored: no record access applies to them. */
const NO_RECORD_ACCESS = {
  canReadType: () => false,
  isFieldRestricted: () => true,
  canReadDisplayOf: () => false,
};

/** One send of one attempt of the schedule. */
interface SendRef {
  attempt: number;
  send: number;
  url: string;
  startedAt: Date;
}

type Prepared =
  | { send: true; url: string; headers: Record<string, string>; body: string }
  | { send: false; url: string; reason: string };

/** The delivery row is gone (its workspace was deleted): nothing to deliver, nothing to retry. */
export class DeliveryMissingError extends Error {
  override name = 'DeliveryMissingError';
  constructor(readonly deliveryId: string) {
    super(`Delivery ${deliveryId} no longer exists.`);
  }
}

/** What an interrupted send says in the attempt history. */
export const INTERRUPTED_SEND_MESSAGE =
  'Outcome unknown: the worker or the database was lost after this request was sent and before its answer was recorded; the receiver may have got it.';

/**
 * One delivery attempt, as a short pipeline: prepare (re-read the webhook, check it, read the
 * event and redact it with the record owner's current access, render, sign) → record the send →
 * send → complete it with the outcome on the delivery row and in its attempt history.
 *
 * Every request that leaves is in the history (issue 11): its row is committed as `sending` before
 * the POST. A re-run of the same attempt (the activity retried after a crash) first returns the
 * attempt's recorded outcome if it has one; otherwise it marks a send left `sending` as `unknown`
 * and sends again as the attempt's next send, so an at-least-once duplicate is never invisible.
 */
export class DeliveryAttempts {
  constructor(
    private readonly deps: { dataSource: DataSource; box: SecretBox; sender: HttpSender; logger: Logger },
  ) {}

  async attempt(deliveryId: string, attempt: number, cancel?: AbortSignal): Promise<AttemptOutcome> {
    const recorded = await this.recordedOutcome(deliveryId, attempt);
    if (recorded) return recorded;
    const delivery = await this.deps.dataSource.manager.findOneBy(Delivery, { id: deliveryId });
    if (!delivery) throw new DeliveryMissingError(deliveryId);
    const send = await this.closeInterruptedSends(deliveryId, attempt);
    const prepared = await this.prepare(delivery);
    if (!prepared.send) {
      return this.complete(
        delivery,
        { attempt, send, url: prepared.url, startedAt: new Date(), durationMs: 0 },
        {
          status: 'failed',
          statusCode: FAILED_BEFORE_SENDING_STATUS,
          responseMessage: prepared.reason,
          done: true,
        },
      );
    }
    const startedAt = new Date();
    await this.startSend(delivery, { attempt, send, url: prepared.url, startedAt });
    const result = await this.deps.sender.post(prepared.url, prepared.headers, prepared.body, cancel);
    // Cancelled (the worker shutting down): the receiver did not fail. The send stays `sending`, so
    // the attempt's re-run shows it as interrupted and sends again.
    if (cancel?.aborted) throw new Error('The attempt was cancelled before the receiver answered.');
    const durationMs = Date.now() - startedAt.getTime();
    return this.complete(
      delivery,
      { attempt, send, url: prepared.url, startedAt, durationMs },
      outcomeOf(result, attempt),
    );
  }

  /** Marks this attempt's sends that an earlier run left `sending` as `unknown`; the next send's number. */
  private async closeInterruptedSends(deliveryId: string, attempt: number): Promise<number> {
    await this.deps.dataSource.query(
      `UPDATE delivery_attempts SET outcome = 'unknown', response_message = $3
        WHERE delivery_id = $1 AND attempt = $2 AND outcome = 'sending'`,
      [deliveryId, attempt, INTERRUPTED_SEND_MESSAGE],
    );
    const [row]: { next: number }[] = await this.deps.dataSource.query(
      `SELECT coalesce(max(send), 0) + 1 AS next FROM delivery_attempts WHERE delivery_id = $1 AND attempt = $2`,
      [deliveryId, attempt],
    );
    return row!.next;
  }

  /** Commits the send's row before the request leaves, with the delivery shown as Sending. */
  private async startSend(delivery: Delivery, send: SendRef): Promise<void> {
    await this.deps.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, outcome)
         VALUES ($1, $2, $3, $4, NULL, $5, 'sending')`,
        [delivery.id, send.attempt, send.send, send.startedAt, send.url],
      );
      await manager.update(
        Delivery,
        { id: delivery.id },
        { status: 'sending', url: send.url, attempts: send.attempt },
      );
    });
  }

  private async prepare(delivery: Delivery): Promise<Prepared> {
    const manager = this.deps.dataSource.manager;
    const webhook = await manager.findOneBy(Webhook, {
      id: delivery.webhookId,
      workspaceId: delivery.workspaceId,
    });
    if (!webhook) return { send: false, url: delivery.url, reason: 'Not sent: the webhook was deleted.' };
    const refuse = (reason: string): Prepared => ({ send: false, url: webhook.url, reason });
    if (!webhook.enabled) return refuse('Not sent: the webhook is disabled.');
    const customHeaders = webhook.headersSealed
      ? (JSON.parse(this.deps.box.open(webhook.headersSealed)) as Record<string, string>)
      : null;
    const violation = transportRuleViolation(webhook.url, webhook.headerNames.length > 0);
    if (violation) return refuse(`Not sent: ${violation}`);

    const event = await loadDeliveryEvent(manager, delivery.workspaceId, delivery.eventId);
    if (!event) return refuse('Not sent: the event no longer exists.');
    let data: Record<string, unknown>;
    if (event.kind === 'record') {
      // spec.md: "The payload is redacted at delivery time by the webhook owner's current access."
      const owner = webhook.recordOwnerUserId
        ? await loadActor(manager, webhook.workspaceId, webhook.recordOwnerUserId)
        : undefined;
      if (!owner || owner.member.status !== 'active') {
        return refuse('Not sent: the record owner is no longer an active member.');
      }
      data = readablePayload(event, await loadRecordAccess(manager, webhook.workspaceId, owner.role));
      if (!('record' in data))
        return refuse('Not sent: the record owner can no longer read this record type.');
    } else {
      data = readablePayload(event, NO_RECORD_ACCESS);
    }
    const envelope = deliveryEnvelope(event, data);

    let body: string;
    if (webhook.bodyTemplate) {
      const rendered = renderBodyTemplate(webhook.bodyTemplate, envelope);
      if (!rendered.ok) return refuse(`Not sent: the body template did not render (${rendered.reason}).`);
      body = rendered.body;
    } else {
      body = JSON.stringify(envelope);
    }
    if (body.length > RENDERED_BODY_MAX) {
      return refuse(`Not sent: the body has ${body.length} characters, more than ${RENDERED_BODY_MAX}.`);
    }
    const secret = webhook.secretSealed ? this.deps.box.open(webhook.secretSealed) : null;
    return {
      send: true,
      url: webhook.url,
      body,
      headers: deliveryHeaders({ deliveryId: delivery.id, body, secret, customHeaders }),
    };
  }

  /**
   * Writes a send's outcome to its row (inserting it for a delivery that was not sent) and, when it
   * is the attempt's latest send, to the delivery row, in one transaction. A late answer of a send
   * already marked `unknown` still records what really happened.
   */
  private async complete(
    delivery: Delivery,
    send: SendRef & { durationMs: number },
    outcome: AttemptOutcome,
  ) {
    const nextAttemptAt = outcome.done ? null : new Date(Date.now() + retryDelayMs(send.attempt));
    await this.deps.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, send, started_at, duration_ms, url, status_code, response_message, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (delivery_id, attempt, send) DO UPDATE
           SET duration_ms = EXCLUDED.duration_ms, status_code = EXCLUDED.status_code,
               response_message = EXCLUDED.response_message, outcome = EXCLUDED.outcome`,
        [
          delivery.id,
          send.attempt,
          send.send,
          send.startedAt,
          send.durationMs,
          send.url,
          outcome.statusCode,
          outcome.responseMessage,
          outcome.status === 'delivered' ? 'delivered' : outcome.done ? 'failed' : 'retry',
        ],
      );
      await manager.query(
        `UPDATE deliveries
            SET status = $4, status_code = $5, response_message = $6, attempts = $2, next_attempt_at = $7,
                url = $8, updated_at = now()
          WHERE id = $1 AND attempts <= $2
            AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.delivery_id = $1 AND a.attempt = $2 AND a.send > $3)`,
        [
          delivery.id,
          send.attempt,
          send.send,
          outcome.status,
          outcome.statusCode,
          outcome.responseMessage,
          nextAttemptAt,
          send.url,
        ],
      );
    });
    return outcome;
  }

  /** The attempt's outcome if one of its sends completed (the latest such send). */
  private async recordedOutcome(deliveryId: string, attempt: number): Promise<AttemptOutcome | undefined> {
    const [row]: { status_code: number | null; response_message: string; outcome: string }[] =
      await this.deps.dataSource.query(
        `SELECT status_code, response_message, outcome FROM delivery_attempts
          WHERE delivery_id = $1 AND attempt = $2 AND outcome IN ('delivered', 'retry', 'failed')
          ORDER BY send DESC LIMIT 1`,
        [deliveryId, attempt],
      );
    if (!row) return undefined;
    return {
      done: row.outcome !== 'retry',
      status: row.outcome === 'delivered' ? 'delivered' : 'failed',
      statusCode: row.status_code,
      responseMessage: row.response_message,
    };
  }
}

/**
 * The receiver's answer as the delivery's outcome (spec.md, Delivery behavior 3-5); a destination
 * the outbound guard refused is a failure before sending (422, behavior 6) with the guard's message.
 */
function outcomeOf(result: AttemptResult, attempt: number): AttemptOutcome {
  const verdict = classifyAttempt(result);
  const statusCode =
    result.kind === 'response'
      ? result.statusCode
      : result.kind === 'refused'
        ? FAILED_BEFORE_SENDING_STATUS
        : null;
  const responseMessage =
    result.kind === 'response'
      ? result.statusText || STATUS_CODES[result.statusCode] || ''
      : result.kind === 'timeout'
        ? `Timed out: no response within ${DELIVERY_TIMEOUT_MS / 1000} s`
        : result.kind === 'refused'
          ? result.message
          : `No response: ${result.message}`;
  if (verdict === 'delivered') return { done: true, status: 'delivered', statusCode, responseMessage };
  const retry = verdict === 'retryable' && hasAttemptsLeft(attempt);
  return { done: !retry, status: 'failed', statusCode, responseMessage };
}
