import type { ComponentSchemas } from '../../http/openapi/components';
import { answer, body, uuidParam, type OperationSpec } from '../../http/openapi/operation';
import type { Check, Same } from '../../http/view-schemas';
import { deliveryViewSchema, testDeliveryExample, type DeliveryView } from '../log/delivery-view';
import { sendTestEventBody } from './test-event-request';
import type { TestEventsService } from './test-events.service';

/** Send a test event to one webhook. */
export const TEST_EVENT_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/test',
    operationId: 'sendTestEvent',
    summary: 'Send a test event',
    description:
      "Needs Create on API & Webhooks. A sample event of one of the webhook's events, with made-up ids and sample values and `data.test: true`, delivered like any other (signature, custom headers, body template, retries) and logged with `trigger: test`. A sample record event describes a record of the webhook's one source type, or of the first type its record owner may read, with only fields the owner may read.",
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    body: body(sendTestEventBody, { event: 'record.created' }),
    success: answer(201, 'The test delivery (Pending).', deliveryViewSchema, testDeliveryExample),
    refusals: {
      404: ['webhookNotFound'],
      409: ['webhookDisabled', 'webhookNotSubscribed', 'testEventNoRecordType'],
    },
  },
];

export const TEST_EVENT_COMPONENTS: ComponentSchemas = {
  requests: { SendTestEventBody: sendTestEventBody },
};

/** Held equal to what the service answers. */
export type TestEventViewChecks = [Check<Same<Awaited<ReturnType<TestEventsService['send']>>, DeliveryView>>];
