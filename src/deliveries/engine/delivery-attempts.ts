import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { DataSource } from 'typeorm';
import { DELIVERY_TIMEOUT_MS, FAILED_BEFORE_SENDING_STATUS, RENDERED_BODY_MAX } from '../../shared/limits';
import type { Logger } from '../../logger';
import { loadRecordAccess } from '../../record-model/record-access';
import { renderBodyTemplate } from '../../webhooks/body-template';
import { transportRuleViolation } from '../../webhooks/transport-rule';
import type { WebhooksRepository } from '../../webhooks/webhooks.repository';
import { loadAttemptSources } from './attempt-sources';
import { deliveryEnvelope, readablePayload } from './delivery-event';
import {
  DeliveryAttemptsRepository,
  type CompletedSend,
  type Delivery,
  type DeliveryStatus,
  type KeptRequest,
  type SendRef,
  type SendResult,
} from '../store';
import {
  ATTEMPT_BODY_DISPLAY_MAX_BYTES,
  keptResponseHeaders,
  maskRequestHeaders,
} from '../../shared/deliveries/attempt-record';
import { deliveryHeaders } from './delivery-request';
import type { HttpSender } from './http-sender';
import { classifyAttempt, type AttemptResult } from '../../shared/deliveries/retry-policy';
import type { AttemptSignal } from '../../shared/deliveries/endpoint-state';

/** What sends a prepared request: the HTTP sender, or it routed through `listen` streams (src/deliveries/listen/). */
export type DeliverySender = Pick<HttpSender, 'post'>;

/** One attempt of the schedule, as the delivery workflow asks for it. */
export interface AttemptRequest {
  deliveryId: string;
  attempt: number;
  /**
   * The workflow's decision: the pause before the next attempt should this one fail in a way that
   * is retried (docs/deliveries.md#what-a-receiver-gets); null when no attempt follows. Recorded,
   * not computed.
   */
  retryInMs: number | null;
}

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
  | {
      send: true;
      url: string;
      headers: Record<string, string>;
      body: string;
      /** Names of the webhook's custom headers: their values are masked in what is kept. */
      customHeaderNames: string[];
    }
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
  private readonly history: DeliveryAttemptsRepository;

  constructor(
    private readonly deps: {
      dataSource: DataSource;
      webhooks: WebhooksRepository;
      sender: DeliverySender;
      logger: Logger;
    },
  ) {
    this.history = new DeliveryAttemptsRepository(deps.dataSource.manager);
  }

  /**
   * Runs the attempt; `onSignal` hears what its request said about the endpoint (nothing when no
   * request left: a recorded outcome, or a failure before sending).
   */
  async attempt(
    request: AttemptRequest,
    cancel?: AbortSignal,
    onSignal?: (signal: AttemptSignal) => void,
  ): Promise<AttemptOutcome> {
    const { deliveryId, attempt, retryInMs } = request;
    const opened = await this.history.openAttempt(deliveryId, attempt, INTERRUPTED_SEND_MESSAGE);
    if ('completed' in opened) return recordedOutcome(opened.completed);
    const { delivery } = opened;
    if (!delivery) throw new DeliveryMissingError(deliveryId);
    const { send } = opened;
    const prepared = await this.prepare(delivery);
    if (!prepared.send) {
      return this.complete(
        { deliveryId, attempt, send, url: prepared.url, startedAt: new Date() },
        0,
        {
          status: 'failed',
          statusCode: FAILED_BEFORE_SENDING_STATUS,
          responseMessage: prepared.reason,
          done: true,
        },
        retryInMs,
      );
    }
    const sendRef: SendRef = { deliveryId, attempt, send, url: prepared.url, startedAt: new Date() };
    await this.history.startSend(sendRef, keptRequest(prepared), delivery.eventId);
    const result = await this.deps.sender.post(prepared.url, prepared.headers, prepared.body, cancel);
    // Cancelled (the worker shutting down): the receiver did not fail. The send stays `sending`, so
    // the attempt's re-run shows it as interrupted and sends again.
    if (cancel?.aborted) throw new Error('The attempt was cancelled before the receiver answered.');
    const durationMs = Date.now() - sendRef.startedAt.getTime();
    const responseHeaders = result.kind === 'response' ? keptResponseHeaders(result.headers ?? []) : null;
    const outcome = await this.complete(
      sendRef,
      durationMs,
      outcomeOf(result, retryInMs !== null),
      retryInMs,
      responseHeaders,
    );
    const signal = signalOf(result, outcome, durationMs);
    if (signal) onSignal?.(signal);
    return outcome;
  }

  private async prepare(delivery: Delivery): Promise<Prepared> {
    const manager = this.deps.dataSource.manager;
    const { webhook, owner, event } = await loadAttemptSources(manager, delivery);
    if (!webhook) return { send: false, url: delivery.url, reason: 'Not sent: the webhook was deleted.' };
    const refuse = (reason: string): Prepared => ({ send: false, url: webhook.url, reason });
    if (!webhook.enabled) return refuse('Not sent: the webhook is disabled.');
    const { signing, headers: customHeaders } = this.deps.webhooks.sendingSecretsOf(webhook, new Date());
    const violation = transportRuleViolation(webhook.url, webhook.headerNames.length > 0);
    if (violation) return refuse(`Not sent: ${violation}`);

    if (!event) return refuse('Not sent: the event no longer exists.');
    let data: Record<string, unknown>;
    if (event.kind === 'record') {
      // docs/deliveries.md#what-the-record-owner-cannot-read: "The payload is redacted at delivery
      // time by the webhook owner's current access."
      if (!owner) return refuse('Not sent: the record owner is no longer an active member.');
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
    return {
      send: true,
      url: webhook.url,
      body,
      headers: deliveryHeaders({
        deliveryId: delivery.id,
        event: delivery.event,
        eventId: delivery.eventId,
        body,
        secrets: signing,
        standardWebhooks: webhook.standardWebhooks,
        signedAt: new Date(),
        customHeaders,
      }),
      customHeaderNames: Object.keys(customHeaders ?? {}),
    };
  }

  /** Records the send's outcome; the next attempt's time is the workflow's pause from now. */
  private async complete(
    send: SendRef,
    durationMs: number,
    outcome: AttemptOutcome,
    retryInMs: number | null,
    responseHeaders: SendResult['responseHeaders'] = null,
  ): Promise<AttemptOutcome> {
    await this.history.completeSend(send, {
      durationMs,
      status: outcome.status,
      statusCode: outcome.statusCode,
      responseMessage: outcome.responseMessage,
      outcome: outcome.status === 'delivered' ? 'delivered' : outcome.done ? 'failed' : 'retry',
      nextAttemptAt: outcome.done || retryInMs === null ? null : new Date(Date.now() + retryInMs),
      responseHeaders,
    });
    return outcome;
  }
}

/** What a request's result says about its endpoint; nothing when the outbound guard refused it. */
function signalOf(result: AttemptResult, outcome: AttemptOutcome, durationMs: number): AttemptSignal | null {
  if (result.kind === 'refused') return null;
  if (result.kind === 'timeout') return { kind: 'timeout', message: outcome.responseMessage };
  if (result.kind === 'network') return { kind: 'no-response', message: outcome.responseMessage };
  return {
    kind: 'answered',
    delivered: outcome.status === 'delivered',
    statusCode: result.statusCode,
    message: `${result.statusCode} ${outcome.responseMessage}`.trim(),
    durationMs,
  };
}

/** The outcome a completed send recorded: what a re-run of its attempt answers. */
function recordedOutcome(row: CompletedSend): AttemptOutcome {
  return {
    done: row.outcome !== 'retry',
    status: row.outcome === 'delivered' ? 'delivered' : 'failed',
    statusCode: row.statusCode,
    responseMessage: row.responseMessage ?? '',
  };
}

/** The request as Event Details keeps it: headers masked, the body within the display limit, its hash and size. */
function keptRequest(prepared: Extract<Prepared, { send: true }>): KeptRequest {
  const bytes = Buffer.from(prepared.body, 'utf8');
  return {
    headers: maskRequestHeaders(
      { ...prepared.headers, 'Content-Length': String(bytes.length) },
      prepared.customHeaderNames,
    ),
    body: bytes.length <= ATTEMPT_BODY_DISPLAY_MAX_BYTES ? prepared.body : null,
    bodySha256: createHash('sha256').update(bytes).digest('hex'),
    bodyBytes: bytes.length,
  };
}

/**
 * The receiver's answer as the delivery's outcome (docs/deliveries.md#what-a-receiver-gets); a destination
 * the outbound guard refused is a failure before sending (422, behavior 6) with the guard's message.
 */
function outcomeOf(result: AttemptResult, retryFollows: boolean): AttemptOutcome {
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
  return { done: !(verdict === 'retryable' && retryFollows), status: 'failed', statusCode, responseMessage };
}
