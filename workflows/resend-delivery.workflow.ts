import { executeChild, ParentClosePolicy } from '@temporalio/workflow';
import { deliveryWorkflow, deliveryWorkflowId } from './delivery.workflow';
import { deliverySearchAttributes } from './search-attributes';

export interface ResendInput {
  deliveryId: string;
  originalDeliveryId: string;
  workspaceId: string;
  webhookId: string;
  event: string;
  eventId: string;
  url: string;
}

export const resendWorkflowId = (deliveryId: string) => `resend-${deliveryId}`;

/**
 * A resend: runs the new delivery row as a child delivery workflow (same event id, carried in the
 * row), findable by the same search attributes as any delivery. The child outlives a cancelled parent.
 */
export async function resendDeliveryWorkflow(input: ResendInput) {
  return executeChild(deliveryWorkflow, {
    workflowId: deliveryWorkflowId(input.deliveryId),
    args: [{ deliveryId: input.deliveryId, workspaceId: input.workspaceId, webhookId: input.webhookId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: deliverySearchAttributes(input),
    memo: { url: input.url, event: input.event, resendOf: input.originalDeliveryId },
  });
}
