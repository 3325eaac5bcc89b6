import { STATUS_CODES } from 'node:http';
import type { DataSource } from 'typeorm';
import { loadActor } from '../identity/actor';
import { DELIVERY_TIMEOUT_MS, FAILED_BEFORE_SENDING_STATUS } from '../limits';
import type { Logger } from '../logger';
import { loadRecordAccess } from '../records/record-access';
import type { SecretBox } from '../security/secret-box';
import { RENDERED_BODY_MAX, renderBodyTemplate } from '../webhooks/body-template';
import { transportRuleViolation } from '../webhooks/transport-rule';
import { Webhook } from '../webhooks/webhook.entity';
import { deliveryEnvelope, loadDeliveryEvent, readablePayload } from './delivery-event';
import { Delivery, type DeliveryStatus } from './delivery.entity';
import { deliveryHeaders } from './delivery-request';
import type { HttpSender } from './http-sender';
import { classifyAttempt, hasAttemptsLeft, retryDelayMs, type AttemptResult } from './retry-policy';

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

type Prepared =
  | { send: true; url: string; headers: Record<string, string>; body: string }
  | { send: false; url: string; reason: string };

/**
 * One delivery attempt, as a short pipeline: prepare (re-read the webhook, check it, read the
 * event and redact it with the record owner's current access, render, sign) → send → record the
 * outcome on the delivery row and in its attempt history. Idempotent on (delivery, attempt): a
 * repeated call (the activity retried after a crash) returns the recorded outcome unsent.
 */
export class DeliveryAttempts {
  constructor(
    private readonly deps: { dataSource: DataSource; box: SecretBox; sender: HttpSender; logger: Logger },
  ) {}

  async attempt(deliveryId: string, attempt: number, cancel?: AbortSignal): Promise<AttemptOutcome> {
    const recorded = await this.recordedOutcome(deliveryId, attempt);
    if (recorded) return recorded;
    const delivery = await this.deps.dataSource.manager.findOneByOrFail(Delivery, { id: deliveryId });
    const prepared = await this.prepare(delivery);
    if (!prepared.send) {
      return this.record(delivery, attempt, prepared.url, new Date(), 0, {
        status: 'failed',
        statusCode: FAILED_BEFORE_SENDING_STATUS,
        responseMessage: prepared.reason,
        done: true,
      });
    }
    await this.deps.dataSource.manager.update(
      Delivery,
      { id: deliveryId },
      { status: 'sending', url: prepared.url, attempts: attempt },
    );
    const startedAt = new Date();
    const result = await this.deps.sender.post(prepared.url, prepared.headers, prepared.body, cancel);
    const duration = Date.now() - startedAt.getTime();
    return this.record(delivery, attempt, prepared.url, startedAt, duration, outcomeOf(result, attempt));
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

  /** Writes the attempt and the delivery's latest outcome together; the attempt row is written once. */
  private async record(
    delivery: Delivery,
    attempt: number,
    url: string,
    startedAt: Date,
    durationMs: number,
    outcome: AttemptOutcome,
  ): Promise<AttemptOutcome> {
    const nextAttemptAt = outcome.done ? null : new Date(Date.now() + retryDelayMs(attempt));
    const written = await this.deps.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, url, status_code, response_message, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING attempt`,
        [
          delivery.id,
          attempt,
          startedAt,
          durationMs,
          url,
          outcome.statusCode,
          outcome.responseMessage,
          outcome.status === 'delivered' ? 'delivered' : outcome.done ? 'failed' : 'retry',
        ],
      );
      if (!inserted.length) return false;
      await manager.update(
        Delivery,
        { id: delivery.id },
        {
          status: outcome.status,
          statusCode: outcome.statusCode,
          responseMessage: outcome.responseMessage,
          attempts: attempt,
          nextAttemptAt,
          url,
        },
      );
      return true;
    });
    // Another run of this activity recorded the attempt first: its outcome stands.
    return written ? outcome : (await this.recordedOutcome(delivery.id, attempt))!;
  }

  private async recordedOutcome(deliveryId: string, attempt: number): Promise<AttemptOutcome | undefined> {
    const [row]: { status_code: number | null; response_message: string; outcome: string }[] =
      await this.deps.dataSource.query(
        `SELECT status_code, response_message, outcome FROM delivery_attempts WHERE delivery_id = $1 AND attempt = $2`,
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
