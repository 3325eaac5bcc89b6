import type { TrashService } from '../src/records/trash/trash.service';

/** The end of a trashed record's 30 days: erase it unless it was restored or trashed again. */
export function createRecordErasureActivities(deps: { trash: TrashService }) {
  return {
    async eraseTrashedRecord(input: {
      workspaceId: string;
      recordId: string;
      trashedVersion: number;
    }): Promise<boolean> {
      return deps.trash.eraseIfStillTrashed(input.workspaceId, input.recordId, input.trashedVersion);
    },
  };
}
