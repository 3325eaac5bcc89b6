import type { RecordsService } from '../src/records/records.service';

/** The end of a trashed record's 30 days: erase it unless it was restored or trashed again. */
export function createRecordErasureActivities(deps: { records: RecordsService }) {
  return {
    async eraseTrashedRecord(input: {
      workspaceId: string;
      recordId: string;
      trashedVersion: number;
    }): Promise<boolean> {
      return deps.records.trashLifecycle.eraseIfStillTrashed(
        input.workspaceId,
        input.recordId,
        input.trashedVersion,
      );
    },
  };
}
