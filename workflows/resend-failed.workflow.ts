import { ActivityFailure, proxyActivities, setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../activities';

export interface ResendFailedInput {
  batchId: string;
  /** The Failed deliveries to resend, oldest first, as the batch chose them. */
  deliveryIds: string[];
}

export interface ResendFailedResult {
  resent: number;
  refused: number;
}

export const resendFailedWorkflowId = (batchId: string) => `resend-batch-${batchId}`;

// Each resend is a regular activity (its input and outcome one row each in the Web UI's history,
// named by its summary). The step is idempotent, so a retry after a lost worker or database is
// harmless; a step that still cannot finish is recorded as refused, and the batch goes on.
const { resendBatchDelivery, refuseBatchDelivery, completeResendBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 5,
  },
});

const progress = (done: number, total: number, tally: ResendFailedResult) =>
  `**${done} of ${total}** handled: ${tally.resent} resent, ${tally.refused} refused.`;

/**
 * "Resend failed since …": resends the batch's deliveries one after another, each under the rules
 * of a single resend as the member who asked (their role as it is now); a refusal is recorded for
 * that delivery and the batch goes on. Progress shows as the workflow's current details.
 */
export async function resendFailedWorkflow(input: ResendFailedInput): Promise<ResendFailedResult> {
  const tally: ResendFailedResult = { resent: 0, refused: 0 };
  const total = input.deliveryIds.length;
  for (const [position, deliveryId] of input.deliveryIds.entries()) {
    setCurrentDetails(progress(position, total, tally));
    const step = { batchId: input.batchId, deliveryId, position };
    let outcome: 'resent' | 'refused';
    try {
      outcome = await resendBatchDelivery.executeWithOptions(
        { summary: `resend ${deliveryId} (${position + 1} of ${total})` },
        [step],
      );
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      outcome = await refuseBatchDelivery(step);
    }
    tally[outcome]++;
  }
  await completeResendBatch({ batchId: input.batchId });
  setCurrentDetails(progress(total, total, tally));
  return tally;
}
