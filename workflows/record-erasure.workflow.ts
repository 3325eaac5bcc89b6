import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { TRASH_RETENTION_DAYS } from '../src/shared/limits';

export interface RecordErasureInput {
  workspaceId: string;
  recordId: string;
  /** The record's version when it was trashed: erasure happens only if it is still that. */
  trashedVersion: number;
}

const { eraseTrashedRecord } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
});

export const recordErasureWorkflowId = (recordId: string, trashedVersion: number) =>
  `record-erasure-${recordId}-v${trashedVersion}`;

/**
 * Erases a trashed record 30 days after it was trashed. Restoring or deleting it permanently
 * cancels this workflow; the activity's version check makes a late cancel harmless anyway.
 */
export async function recordErasureWorkflow(input: RecordErasureInput): Promise<'erased' | 'skipped'> {
  await sleep(`${TRASH_RETENTION_DAYS} days`);
  return (await eraseTrashedRecord(input)) ? 'erased' : 'skipped';
}
