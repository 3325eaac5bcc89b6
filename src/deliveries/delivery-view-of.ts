import { isRetiredEvent } from '../shared/event-catalog';
import type { Delivery } from './delivery.entity';
import type { DeliveryLabels } from './delivery-labels';
import type { DeliveryView } from './delivery-view';

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
