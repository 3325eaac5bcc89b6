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
        `Resends the webhook's Failed deliveries since a time, oldest first, at most ${RESEND_BATCH_MAX}, in the ` +
        'background (follow it with get_resend_batch).',
      input: z.strictObject({
        id: webhookId,
        since: resendFailedBody.shape.since.describe(
          'ISO 8601 date-time with a zone, not in the future: Failed deliveries since then are resent (not ones still ' +
            'retrying or already resent).',
        ),
      }),
      output: resendBatchViewSchema,
      writes: true,
      run: async (args, actor) => resendBatches.start(actor, args.id, args.since),
    }),
    defineAction({
      action: 'get_resend_batch',
      summary: 'A resend_failed batch: each delivery resent (new id) or refused (why).',
      input: z.strictObject({ batchId }),
      output: resendBatchViewSchema,
      writes: false,
      readOnlyTool: {
        name: 'get_resend_batch',
        title: 'Get a resend batch',
        description:
          'Reads a batch started by manage_webhooks action resend_failed: running or completed, how many it chose, ' +
          'and per delivery the new delivery id or the refusal. Read-only.',
      },
      run: async (args, actor) => resendBatches.getById(actor, args.batchId),
    }),
  ];
}
