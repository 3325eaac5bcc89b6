import {
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  ParentClosePolicy,
  patched,
} from '@temporalio/workflow';
import {
  DELIVERY_FAILED,
  deliveryWorkflow,
  deliveryWorkflowId,
  type DeliveryResult,
} from './delivery.workflow';
import { deliverySearchAttributes } from '../src/shared/temporal/search-attributes';

export interface ResendInput {
  deliveryId: string;
  originalDeliveryId: string;
  workspaceId: string;
  webhookId: string;
  event: string;
  eventId: string;
  url: string;
}

/** How a resend's delivery ended; `reason` says why when it failed for good. */
export interface ResendResult extends DeliveryResult {
  reason?: string;
}

export const resendWorkflowId = (deliveryId: string) => `resend-${deliveryId}`;

/**
 * The patch id of a resend that completes with its delivery's outcome instead of failing with it
 * (issue 33, item 2). Checked when the child fails for good, so a resend whose child was still
 * running during the upgrade completes too; one that had already failed replays as it ran.
 */
const RESEND_OUTCOME = 'resend-completes-with-outcome';

/**
 * A resend: runs the new delivery row as a child delivery workflow (same event id, carried in the
 * row), findable by the same search attributes as any delivery. The child outlives a cancelled
 * parent. The resend itself did its job once the child ran: it completes with how the delivery
 * ended, delivered or failed, and only the delivery's own workflow ends Failed, so the Web UI's
 * red rows count failed deliveries, once each.
 */
export async function resendDeliveryWorkflow(input: ResendInput): Promise<ResendResult> {
  try {
    return await executeChild(deliveryWorkflow, {
      workflowId: deliveryWorkflowId(input.deliveryId),
      args: [{ deliveryId: input.deliveryId, workspaceId: input.workspaceId, webhookId: input.webhookId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: deliverySearchAttributes(input),
      memo: { url: input.url, event: input.event, resendOf: input.originalDeliveryId },
    });
  } catch (error) {
    const failed = deliveryFailedForGood(error);
    if (failed && patched(RESEND_OUTCOME)) return failed;
    // Anything else (the child terminated, say) is not a delivery's outcome: the resend fails.
    throw error;
  }
}

/** The delivery's outcome when its workflow failed for good (DELIVERY_FAILED, with its result). */
function deliveryFailedForGood(error: unknown): ResendResult | null {
  const cause = error instanceof ChildWorkflowFailure ? error.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || cause.type !== DELIVERY_FAILED) return null;
  const result = cause.details?.[0] as DeliveryResult | undefined;
  return result ? { ...result, reason: cause.message } : null;
}
