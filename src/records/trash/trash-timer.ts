import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { recordErasureWorkflow, recordErasureWorkflowId } from '../../../workflows/record-erasure.workflow';
import { WorkspaceIdKey } from '../../shared/temporal/search-attributes';
import type { TrashTimer } from './trash.service';

/** The 30-day erasure timer of a trashed record: one Temporal workflow per trashing. */
export class TemporalTrashTimer implements TrashTimer {
  constructor(
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  async start(input: { workspaceId: string; recordId: string; trashedVersion: number }): Promise<void> {
    await this.client.workflow.start(recordErasureWorkflow, {
      workflowId: recordErasureWorkflowId(input.recordId, input.trashedVersion),
      taskQueue: this.taskQueue,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: [{ key: WorkspaceIdKey, value: input.workspaceId }],
      staticSummary: `Erase record ${input.recordId} 30 days after it was trashed`,
    });
  }

  async cancel(input: { recordId: string; trashedVersion: number }): Promise<void> {
    try {
      await this.client.workflow
        .getHandle(recordErasureWorkflowId(input.recordId, input.trashedVersion))
        .cancel();
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
}
