import type { ComponentSchemas } from '../../http/openapi/components';
import { answer, pagedList, uuidParam, type OperationSpec } from '../../http/openapi/operation';
import type { Check, Same } from '../../http/view-schemas';
import { deliveryStatsQuery, listAllDeliveriesQuery, listDeliveriesQuery } from './delivery-query';
import { deliveryStatsExample, deliveryStatsSchema, type DeliveryStatsView } from './delivery-stats-view';
import type { EncodedPage } from '../../http/paging';
import type { DeliveriesService } from './deliveries.service';
import {
  messagingEventEnvelopeSchema,
  operationalEventEnvelopeSchema,
  recordEventEnvelopeSchema,
} from '../engine/envelope-view';
import {
  deliveryPageExample,
  deliveryPageSchema,
  deliveryViewSchema,
  eventDetailsExample,
  eventDetailsSchema,
  resentDeliveryExample,
  retriedNowDeliveryExample,
  type DeliveryPage,
} from './delivery-view';

/** What both lists of the delivery log share: their filters, their page and their refusals. */
const deliveryLog = {
  tag: 'Webhooks',
  items: 'deliveries',
  page: deliveryPageSchema,
  example: deliveryPageExample,
  queryDescriptions: {
    searchTerm: 'Part of the URL or of the event name.',
    status:
      "Only deliveries with this status (the spec's four). `failed` includes the deliveries whose next attempt is scheduled: they are Failed until it runs.",
    state:
      'Only deliveries in this state: `retrying` (failed, the next attempt scheduled), `failed` (failed for good, no attempt follows), or `pending`, `sending`, `delivered` as their status.',
    event: 'Only deliveries of this event, e.g. `record.updated`.',
    url: 'Only deliveries sent to exactly this URL.',
    createdFrom: 'Created at or after (ISO 8601 date or date-time; a date starts at 00:00 UTC).',
    createdTo: 'Created at or before (ISO 8601 date or date-time; a date covers its whole day, UTC).',
    webhookId: "Only this webhook's deliveries (404 `webhookNotFound` when it is not in the workspace).",
    eventId:
      "Only the deliveries of this event: the envelope's `id`, the same on every retry and resend (a whole id).",
    recordId: 'Only the deliveries about this record (`element.recordId`; a whole id).',
    idPrefix:
      'One delivery by its id, or by its first 8 or more hex digits (the short id the web app shows), with or without hyphens.',
  },
  /** A query parameter the route does not know is refused, not ignored. */
  refusals: { 400: ['unknownField'], 404: ['webhookNotFound'] },
} as const;

/** The delivery log of the webhooks. */
export const DELIVERY_OPERATIONS: OperationSpec[] = [
  pagedList({
    ...deliveryLog,
    path: '/api/v1/webhooks/deliveries',
    operationId: 'listDeliveries',
    summary: 'List the deliveries of every webhook, newest first',
    query: listAllDeliveriesQuery,
  }),
  {
    method: 'get',
    path: '/api/v1/webhooks/deliveries/stats',
    operationId: 'getDeliveryStats',
    summary: 'Count deliveries by outcome over time',
    description:
      'The chart of the delivery log: every hour of the last 24 hours (`range=24h`, the default), or every UTC day of the last 7 or 30 days, oldest first, with the empty buckets as zeros. The last bucket is the current hour or day. Each delivery counts once, in the bucket of its creation, with its state now: Delivered, Failed (for good), Retrying (Failed with its next attempt to come) or in flight (Pending or Sending). `successRate` is over the finished ones: delivered / (delivered + failed). Counts only this workspace.',
    tag: 'Webhooks',
    query: deliveryStatsQuery,
    queryDescriptions: {
      range: '`24h` (hourly buckets, the default), `7d` or `30d` (daily buckets, UTC days).',
      webhookId: deliveryLog.queryDescriptions.webhookId,
    },
    success: answer(200, 'The buckets and their totals.', deliveryStatsSchema, deliveryStatsExample),
    refusals: deliveryLog.refusals,
  },
  pagedList({
    ...deliveryLog,
    path: '/api/v1/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'List the deliveries of one webhook, newest first',
    description: "A deleted webhook's deliveries stay readable under its id.",
    pathParams: { id: uuidParam('webhook') },
    query: listDeliveriesQuery,
  }),
  {
    method: 'get',
    path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}',
    operationId: 'getDeliveryDetails',
    summary: 'Event Details of a delivery',
    description: 'The delivery, its attempts, and the event payload as you may read it now.',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook'), deliveryId: uuidParam('delivery') },
    success: answer(
      200,
      'The delivery with its attempts and payload.',
      eventDetailsSchema,
      eventDetailsExample,
    ),
    refusals: { 404: ['webhookNotFound', 'deliveryNotFound'] },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/resend',
    operationId: 'resendDelivery',
    summary: 'Resend a delivery',
    description:
      "Needs Create on API & Webhooks. A new delivery of the same event (same event id) to the webhook as it is now; only the webhook's record owner or an Admin resends a record event. Offered once the delivery is Delivered or Failed; a Failed one whose `state` is `retrying` still has attempts to come (see `retryDeliveryNow`), and a resend then sends the event beside them.",
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook'), deliveryId: uuidParam('delivery') },
    success: answer(201, 'The new delivery.', deliveryViewSchema, resentDeliveryExample),
    refusals: {
      403: ['deliveryResendNotOwner'],
      404: ['webhookNotFound', 'deliveryNotFound'],
      409: [
        'deliveryEventRetired',
        'deliveryNotFinished',
        'webhookDisabled',
        'webhookNotSubscribed',
        'webhookSourcesChanged',
      ],
    },
  },
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry-now',
    operationId: 'retryDeliveryNow',
    summary: 'Run a retrying delivery’s next attempt now',
    description:
      "Needs Create on API & Webhooks; only the webhook's record owner or an Admin retries a record event (as for resend). For a delivery whose `state` is `retrying` (Failed, its next attempt scheduled): its workflow stops waiting and runs that attempt now, as the next of its ten, in the same delivery (no new delivery, unlike a resend, which would send the event again beside the retries still to come). Answered once the workflow accepted it, with the delivery, whose `nextAttemptAt` is then now; Event Details show the attempt's outcome. Refused, changing nothing, unless the delivery is retrying.",
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook'), deliveryId: uuidParam('delivery') },
    success: answer(
      202,
      'Accepted: the next attempt runs now. The delivery as it is then.',
      deliveryViewSchema,
      retriedNowDeliveryExample,
    ),
    refusals: {
      403: ['deliveryResendNotOwner'],
      404: ['webhookNotFound', 'deliveryNotFound'],
      409: ['deliveryNotRetrying'],
    },
  },
];

export const DELIVERY_COMPONENTS: ComponentSchemas = {
  responses: {
    RecordEventEnvelope: recordEventEnvelopeSchema,
    MessagingEventEnvelope: messagingEventEnvelopeSchema,
    OperationalEventEnvelope: operationalEventEnvelopeSchema,
    Delivery: deliveryViewSchema,
    DeliveryPage: deliveryPageSchema,
    EventDetails: eventDetailsSchema,
    DeliveryStats: deliveryStatsSchema,
  },
};

/** Held equal to what the deliveries service answers. */
export type DeliveryViewChecks = [
  Check<Same<EncodedPage<Awaited<ReturnType<DeliveriesService['list']>>>, DeliveryPage>>,
  Check<Same<Awaited<ReturnType<DeliveriesService['stats']>>, DeliveryStatsView>>,
];
