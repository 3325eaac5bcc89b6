import { isRetiredEvent } from '../shared/event-catalog';
import type { Delivery } from './delivery.entity';

/** A delivery as REST, MCP and the web app return it (architecture.md, "response shapes"). */
export interface DeliveryView {
  id: string;
  webhookId: string;
  url: string;
  event: string;
  /** A retired type-specific event, shown with a (legacy) marker. */
  legacy: boolean;
  element: Delivery['element'];
  status: Delivery['status'];
  /** null when no response arrived; 422 when it failed before sending. */
  statusCode: number | null;
  responseMessage: string | null;
  eventId: string;
  attempts: number;
  nextAttemptAt: string | null;
  trigger: Delivery['trigger'];
  resendOf: string | null;
  /** The delivery's workflow in the Temporal Web UI, when its address is known. */
  temporalUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttemptView {
  attempt: number;
  startedAt: string;
  /** Which send of this attempt: a send interrupted by a crash is followed by another (issue 11). */
  send: number;
  /** Null while the request is out, or when its outcome is unknown. */
  durationMs: number | null;
  url: string;
  statusCode: number | null;
  responseMessage: string;
  /** `sending`: the request is out now; `unknown`: it was sent and the answer was lost in a crash. */
  outcome: 'sending' | 'unknown' | 'delivered' | 'retry' | 'failed';
}

export function deliveryView(delivery: Delivery, temporalUrl: string | null): DeliveryView {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    url: delivery.url,
    event: delivery.event,
    legacy: isRetiredEvent(delivery.event),
    element: delivery.element,
    status: delivery.status,
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
