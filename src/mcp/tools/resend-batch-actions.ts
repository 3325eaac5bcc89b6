import { z } from 'zod';
import { resendFailedBody } from '../../deliveries/resend/resend-batch-request';
import { resendBatchViewSchema } from '../../deliveries/resend/resend-batch-view';
import type { ResendBatchesService } from '../../deliveries/resend/resend-batches.service';
import { RESEND_BATCH_MAX } from '../../shared/limits';
import { defineAction, type WebhookAction } from './webhook-action';
import { webhookId } from './webhook-inputs';

const batchId = z.uuid().describe('The resend batch id (from resend_failed).');

/** "Resend failed since …" for an assistant: start a batch, then follow it. */
export function resendBatchActions(resendBatches: ResendBatchesService): WebhookAction[] {
  return [
    defineAction({
      action: 'resend_failed',
      summary:
        `Resends the webhook's Failed deliveries created since a time, oldest first, at most ${RESEND_BATCH_MAX}, ` +
        'each under the rules of resend_delivery (refusals are reported per delivery); runs in the background: ' +
        'follow it with get_resend_batch.',
      input: z.strictObject({
        id: webhookId,
        since: resendFailedBody.shape.since.describe(
          'ISO 8601 date-time with a zone (e.g. 2025-03-04T00:00:00Z), not in the future: Failed deliveries created ' +
            'at or after it are resent. Deliveries still being retried automatically, and ones already resent, are left.',
        ),
      }),
      output: resendBatchViewSchema,
      writes: true,
      run: async (args, actor) => resendBatches.start(actor, args.id, args.since),
    }),
    defineAction({
      action: 'get_resend_batch',
      summary:
        'The progress of a resend_failed batch: each delivery resent (new delivery id) or refused (why).',
      input: z.strictObject({ batchId }),
      output: resendBatchViewSchema,
      writes: false,
      readOnlyTool: {
        name: 'get_resend_batch',
        title: 'Get a resend batch',
        description:
          'Reads a batch started by manage_webhooks action resend_failed: running or completed, how many were chosen ' +
          '(moreRemained: more Failed deliveries were left for another batch), and per delivery the new delivery id ' +
          'or the refusal (status, customCode, message). Read-only.',
      },
      run: async (args, actor) => resendBatches.getById(actor, args.batchId),
    }),
  ];
}
