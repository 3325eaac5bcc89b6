import type { ComponentSchemas } from '../../http/openapi/components';
import { answer, body, uuidParam, type OperationSpec } from '../../http/openapi/operation';
import type { Check, Same } from '../../http/view-schemas';
import { RESEND_BATCH_MAX } from '../../shared/limits';
import { resendFailedBody } from './resend-batch-request';
import {
  completedResendBatchExample,
  resendBatchViewSchema,
  startedResendBatchExample,
  type ResendBatchView,
} from './resend-batch-view';
import type { ResendBatchesService } from './resend-batches.service';

/** "Resend failed since …" of one webhook, and its progress. */
export const RESEND_BATCH_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/v1/webhooks/{id}/resend-failed',
    operationId: 'resendFailedDeliveries',
    summary: 'Resend the failed deliveries since a time',
    description:
      `Needs Create on API & Webhooks, as a single resend. Chooses this webhook's Failed deliveries created at or after \`since\`, oldest first, at most ${RESEND_BATCH_MAX} (\`moreRemained\` says when more were left), and resends them in the background, a few at a time in that order, each under the rules of a single resend, acting as you with your role as it is when it runs. ` +
      'A delivery with automatic retries still to come is left to them; one already resent is left too (its resend is chosen instead when it failed). ' +
      'A delivery that a single resend would refuse (a record event while you are neither the record owner nor an Admin, an event the webhook no longer subscribes to, changed record sources, a retired event) is refused in the batch, with the reason, and the others go on. ' +
      'Answers at once with the batch (`running`); follow it with `Location` (getResendBatch).',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook') },
    body: body(resendFailedBody, { since: '2025-03-04T00:00:00Z' }),
    success: answer(
      202,
      'The batch, chosen and running; `Location` names it.',
      resendBatchViewSchema,
      startedResendBatchExample,
    ),
    refusals: {
      400: ['resendSinceInFuture', 'resendSinceInvalid'],
      404: ['webhookNotFound'],
      409: ['webhookDisabled'],
    },
  },
  {
    method: 'get',
    path: '/api/v1/webhooks/{id}/resend-batches/{batchId}',
    operationId: 'getResendBatch',
    summary: 'Progress of a resend batch',
    description:
      'The batch and one result per delivery handled so far: `resentDeliveryId` (the new delivery) or `refusal` (what a single resend would have answered). `completed` once every delivery has a result. Needs Read access All on API & Webhooks.',
    tag: 'Webhooks',
    pathParams: { id: uuidParam('webhook'), batchId: uuidParam('resend batch') },
    success: answer(
      200,
      'The batch and its results so far.',
      resendBatchViewSchema,
      completedResendBatchExample,
    ),
    refusals: { 404: ['webhookNotFound', 'resendBatchNotFound'] },
  },
];

export const RESEND_BATCH_COMPONENTS: ComponentSchemas = {
  requests: { ResendFailedBody: resendFailedBody },
  responses: { ResendBatch: resendBatchViewSchema },
};

/** Held equal to what the service answers. */
export type ResendBatchViewChecks = [
  Check<Same<Awaited<ReturnType<ResendBatchesService['get']>>, ResendBatchView>>,
  Check<Same<Awaited<ReturnType<ResendBatchesService['start']>>, ResendBatchView>>,
];
