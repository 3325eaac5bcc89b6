import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Logger } from '../../logger';
import {
  heldDeliveriesWorkflow,
  heldDeliveriesWorkflowId,
} from '../../../workflows/held-deliveries.workflow';
import { DeliveryStatusKey, WebhookIdKey, WorkspaceIdKey } from '../../shared/temporal/search-attributes';
import { workspacePriority } from '../engine/fairness';
import type { HeldWorkflows } from './held-deliveries';
import type { LaneKey } from './lane-budget';

/** How long a process trusts that an endpoint's workflow runs before asking Temporal again. */
const ENSURED_FOR_MS = 10_000;
/** Endpoints remembered per process; all forgotten beyond it. */
const REMEMBERED = 10_000;

/**
 * Starts an endpoint's held-deliveries workflow (workflows/held-deliveries.workflow.ts) when the
 * release pass finds held deliveries, idempotently (an existing run is reused), at most once per
 * ENSURED_FOR_MS per endpoint and process: the pass runs twice a second. A start that fails (Temporal
 * down) is only logged: the workflow shows held deliveries, it does not hold them, and the next pass
 * tries again.
 */
export class TemporalHeldWorkflows implements HeldWorkflows {
  private readonly ensuredAt = new Map<string, number>();

  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
    private readonly logger: Logger,
    private readonly weights: Readonly<Record<string, number>> = {},
    private readonly now: () => number = Date.now,
  ) {}

  ensure(key: LaneKey): void {
    const at = this.now();
    if (at - (this.ensuredAt.get(key.webhookId) ?? Number.NEGATIVE_INFINITY) < ENSURED_FOR_MS) return;
    if (this.ensuredAt.size >= REMEMBERED) this.ensuredAt.clear();
    this.ensuredAt.set(key.webhookId, at);
    this.start(key).catch((error: unknown) => {
      this.ensuredAt.delete(key.webhookId);
      this.logger.warn({ err: error, ...key }, 'could not start the held-deliveries workflow yet');
    });
  }

  private async start(key: LaneKey): Promise<void> {
    try {
      await this.client.workflow.start(heldDeliveriesWorkflow, {
        workflowId: heldDeliveriesWorkflowId(key.webhookId),
        taskQueue: this.taskQueue,
        args: [key],
        workflowIdConflictPolicy: 'USE_EXISTING',
        priority: workspacePriority(key.workspaceId, this.weights),
        typedSearchAttributes: [
          { key: WorkspaceIdKey, value: key.workspaceId },
          { key: WebhookIdKey, value: key.webhookId },
          { key: DeliveryStatusKey, value: 'held' },
        ],
        staticSummary: `Held deliveries of webhook ${key.webhookId}`,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
