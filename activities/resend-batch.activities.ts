import { ApplicationFailure } from '@temporalio/activity';
import type { OutcomeCounts } from '../src/shared/webhooks/webhook-health';
import {
  ResendBatchMissingError,
  type BatchStep,
  type ResendBatchSteps,
} from '../src/deliveries/resend/resend-batch-steps';

/** The steps of "Resend failed since …" (workflows/resend-failed.workflow.ts); each is idempotent. */
export function createResendBatchActivities(deps: { steps: ResendBatchSteps }) {
  return {
    async resendBatchDelivery(step: BatchStep): Promise<'resent' | 'refused'> {
      try {
        return await deps.steps.resendOne(step);
      } catch (error) {
        // Retrying cannot bring a deleted batch back.
        if (error instanceof ResendBatchMissingError) {
          throw ApplicationFailure.nonRetryable(error.message, 'ResendBatchMissing');
        }
        throw error;
      }
    },
    async refuseBatchDelivery(step: BatchStep): Promise<'resent' | 'refused'> {
      return deps.steps.giveUp(step);
    },
    async completeResendBatch(input: { batchId: string }): Promise<void> {
      await deps.steps.complete(input.batchId);
    },
    async resentDeliveryOutcomes(input: { batchId: string }): Promise<OutcomeCounts> {
      return deps.steps.resentOutcomes(input.batchId);
    },
  };
}
