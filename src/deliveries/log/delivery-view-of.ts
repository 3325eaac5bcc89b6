import {
  BODY_WITHHELD_MESSAGES,
  digestShown,
  MASKED_VALUE,
  requestBodyWithheld,
  type BodyViewer,
  type HeaderPair,
} from '../../shared/deliveries/attempt-record';
import { deliveryState } from '../../shared/deliveries/delivery-state';
import { isRetiredEvent } from '../../shared/events/event-catalog';
import type { Delivery, DeliveryAttempt } from '../store';
import type { DeliveryLabels } from './delivery-labels';
import type { DeliveryAttemptView, DeliveryView } from './delivery-view';

export function deliveryView(
  delivery: Delivery,
  temporalUrl: string | null,
  labels: DeliveryLabels,
): DeliveryView {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    url: delivery.url,
    event: delivery.event,
    legacy: isRetiredEvent(delivery.event),
    element: delivery.element,
    elementName: labels.elementName,
    webhook: labels.webhook,
    status: delivery.status,
    state: deliveryState(delivery),
    statusCode: delivery.statusCode,
    responseMessage: delivery.responseMessage,
    eventId: delivery.eventId,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    trigger: delivery.trigger,
    resendOf: delivery.resendOf,
    temporalUrl,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
}

const pairs = (headers: HeaderPair[]) => headers.map(([name, value]) => ({ name, value }));

/** One send of an attempt as Event Details shows it to this viewer. */
export function attemptView(row: DeliveryAttempt, viewer: BodyViewer): DeliveryAttemptView {
  const erased = row.requestBodyErasedAt !== null;
  const withheld = requestBodyWithheld({ ...viewer, kept: row.requestBody !== null, erased });
  const digest = digestShown({ ...viewer, erased });
  return {
    attempt: row.attempt,
    send: row.send,
    startedAt: row.startedAt.toISOString(),
    durationMs: row.durationMs,
    url: row.url,
    statusCode: row.statusCode,
    responseMessage: row.responseMessage,
    outcome: row.outcome,
    request:
      row.requestHeaders === null || row.requestBodySha256 === null || row.requestBodyBytes === null
        ? null
        : {
            // Content-Length is the body's size: masked where the size is.
            headers: pairs(row.requestHeaders).map((header) =>
              !digest && header.name.toLowerCase() === 'content-length'
                ? { ...header, value: MASKED_VALUE }
                : header,
            ),
            body: withheld === null ? row.requestBody : null,
            bodySha256: digest ? row.requestBodySha256 : null,
            bodyBytes: digest ? row.requestBodyBytes : null,
            bodyWithheld:
              withheld === null ? null : { reason: withheld, message: BODY_WITHHELD_MESSAGES[withheld] },
          },
    requestExpiredAt: row.requestExpiredAt?.toISOString() ?? null,
    response:
      row.responseHeaders === null
        ? null
        : { headers: pairs(row.responseHeaders), omittedHeaders: row.responseHeadersOmitted ?? 0 },
  };
}
