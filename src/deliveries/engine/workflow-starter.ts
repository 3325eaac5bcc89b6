import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
} from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  deliveryWorkflow,
  deliveryWorkflowId,
  RETRY_NOT_WAITING,
  retryNowUpdate,
} from '../../../workflows/delivery.workflow';
import { resendDeliveryWorkflow, resendWorkflowId } from '../../../workflows/resend-delivery.workflow';
import { resendFailedWorkflow, resendFailedWorkflowId } from '../../../workflows/resend-failed.workflow';
import {
  deliverySearchAttributes,
  DeliveryStatusKey,
  WebhookIdKey,
  WorkspaceIdKey,
} from '../../shared/temporal/search-attributes';
import { inTraceOf } from '../../tracing/trace-carrier';
import { workspacePriority } from './fairness';
import type { Delivery, ResendBatch } from '../store';
import type { DeliveryStarter, ResendBatchStarter, RetryNowSender } from './delivery-starter';

/**
 * Search attributes and memo that let an operator find a delivery in the Temporal Web UI. Only the
 * delivery workflow carries DeliveryStatus (it keeps it current); a resend's parent does not.
 */
function visibility(delivery: Delivery, weights: Readonly<Record<string, number>>, withStatus = true) {
  return {
    priority: workspacePriority(delivery.workspaceId, weights),
    typedSearchAttributes: [
      ...deliverySearchAttributes({ ...delivery, deliveryId: delivery.id }),
      ...(withStatus ? [{ key: DeliveryStatusKey, value: delivery.status }] : []),
    ],
    memo: { url: delivery.url, event: delivery.event },
    staticSummary: `${delivery.event} → ${delivery.url}`,
  };
}

/**
 * Starts delivery workflows idempotently
 * (docs/architecture.md#one-record-write-to-a-received-webhook, step 3): the workflow id comes from
 * the delivery id, an existing run is reused, a closed one is not run again. The unique delivery id
 * in PostgreSQL is the real guard; this only keeps a second start harmless.
 */
export class TemporalDeliveryStarter implements DeliveryStarter, ResendBatchStarter, RetryNowSender {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    /** Ask for eager start (only when this process's worker shares the client's connection). */
    private readonly eagerStart = false,
    /** Fairness weights of workspaces other than 1 (DELIVERY_FAIRNESS_WEIGHTS). */
    private readonly weights: Readonly<Record<string, number>> = {},
    /** Told of each delivery workflow started, and whether the server handed its first task over eagerly. */
    private readonly onStarted: (eagerly: boolean) => void = () => undefined,
  ) {}

  async startDelivery(delivery: Delivery): Promise<void> {
    try {
      // In the trace of the write that committed it, wherever and whenever this runs (a worker
      // process's claim, the dispatch sweep, the release of held deliveries); without one, in the
      // caller's (docs/observability.md#where-a-trace-stops).
      const { eagerlyStarted } = await inTraceOf(delivery.traceContext, () =>
        this.client.workflow.start(deliveryWorkflow, {
          workflowId: deliveryWorkflowId(delivery.id),
          taskQueue: this.taskQueue,
          // The server hands the first workflow task back with the start's answer when this
          // process's worker has a free slot; otherwise it dispatches the task as usual.
          requestEagerStart: this.eagerStart,
          args: [
            { deliveryId: delivery.id, workspaceId: delivery.workspaceId, webhookId: delivery.webhookId },
          ],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          ...visibility(delivery, this.weights),
        }),
      );
      this.onStarted(eagerlyStarted);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }

  /**
   * Retry now: a Temporal Update to the delivery's workflow, answered once the workflow accepted it
   * (its wait ended, `attempt` runs now). null when it refused, as its validator does unless the
   * workflow waits for exactly that attempt, or when the workflow is closed or gone.
   */
  async retryNow(deliveryId: string, attempt: number): Promise<{ attempt: number } | null> {
    try {
      return await this.client.workflow
        .getHandle(deliveryWorkflowId(deliveryId))
        .executeUpdate(retryNowUpdate, { args: [{ attempt }] });
    } catch (error) {
      const refused =
        error instanceof WorkflowUpdateFailedError &&
        error.cause instanceof ApplicationFailure &&
        error.cause.type === RETRY_NOT_WAITING;
      if (refused || error instanceof WorkflowNotFoundError) return null;
      throw error;
    }
  }

  /** A resend: a parent workflow whose child delivers the new row with the original event id. */
  async startResend(delivery: Delivery, originalDeliveryId: string): Promise<void> {
    await this.client.workflow.start(resendDeliveryWorkflow, {
      workflowId: resendWorkflowId(delivery.id),
      taskQueue: this.taskQueue,
      args: [
        {
          deliveryId: delivery.id,
          originalDeliveryId,
          workspaceId: delivery.workspaceId,
          webhookId: delivery.webhookId,
          event: delivery.event,
          eventId: delivery.eventId,
          url: delivery.url,
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      ...visibility(delivery, this.weights, false),
    });
  }

  /**
   * "Resend failed since …": one workflow per batch, its id from the batch id (a second start
   * joins the first). Its summary and details say what it is in the Web UI's list and header.
   */
  async startResendBatch(batch: ResendBatch, webhookUrl: string): Promise<void> {
    await this.client.workflow.start(resendFailedWorkflow, {
      workflowId: resendFailedWorkflowId(batch.id),
      taskQueue: this.taskQueue,
      args: [{ batchId: batch.id, deliveryIds: batch.deliveryIds }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      priority: workspacePriority(batch.workspaceId, this.weights),
      typedSearchAttributes: [
        { key: WorkspaceIdKey, value: batch.workspaceId },
        { key: WebhookIdKey, value: batch.webhookId },
      ],
      memo: { url: webhookUrl, since: batch.since.toISOString() },
      staticSummary: `Resend ${batch.deliveryIds.length} failed since ${batch.since.toISOString()} → ${webhookUrl}`,
      staticDetails: [
        `**Resend failed since** ${batch.since.toISOString()}`,
        `- webhook: ${batch.webhookId} (${webhookUrl})`,
        `- batch: ${batch.id}, ${batch.deliveryIds.length} deliveries, oldest first` +
          (batch.moreRemained ? ` (more remained beyond the limit of ${batch.limit})` : ''),
        `- asked by user ${batch.requestedByUserId}` +
          (batch.apiKeyId ? ` with API key ${batch.apiKeyId}` : ''),
      ].join('\n'),
    });
  }
}
