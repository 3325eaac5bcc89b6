import type { DataSource, EntityManager } from 'typeorm';
import { writeTransaction } from '../http/idempotent-write';
import type { Logger } from '../logger';
import { TRASH_RETENTION_MS } from '../shared/limits';
import { eraseRecord } from './erasure';
import { RecordsRepository } from './records.repository';

/** Starts and cancels the 30-day erasure timer of a trashed record (Temporal, in production). */
export interface TrashTimer {
  start(input: { workspaceId: string; recordId: string; trashedVersion: number }): Promise<void>;
  cancel(input: { recordId: string; trashedVersion: number }): Promise<void>;
}

/**
 * The 30-day life of a trashed record (spec.md, Trash): a timer per trashing, its end (erase if
 * still trashed at that version), and a sweep that erases what a timer missed.
 */
export class TrashLifecycle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly timer: TrashTimer,
    private readonly logger: Logger,
    /** Called after an erasure commits its events (the dispatcher's kick). */
    private readonly onEventsCommitted: () => void,
  ) {}

  /** A record was just trashed at `trashedVersion`: start its erasure timer. */
  async trashed(workspaceId: string, recordId: string, trashedVersion: number): Promise<void> {
    try {
      await this.timer.start({ workspaceId, recordId, trashedVersion });
    } catch (error) {
      // The trash is committed; the retention sweep (eraseExpiredTrash) erases it on time anyway.
      this.logger.error({ err: error, recordId }, 'could not start the erasure timer');
    }
  }

  /** A record left the Trash (restored or erased by hand): its timer has nothing left to do. */
  async leftTrash(recordId: string, trashedVersion: number): Promise<void> {
    try {
      await this.timer.cancel({ recordId, trashedVersion });
    } catch (error) {
      // Harmless: the timer's activity erases only a record still trashed at that version.
      this.logger.warn({ err: error, recordId }, 'could not cancel the erasure timer');
    }
  }

  /**
   * The timer's end: erases the record if it is still in the Trash at the version it was trashed
   * with (a restore, or a later trashing, makes this a no-op). Returns whether it erased.
   */
  async eraseIfStillTrashed(workspaceId: string, recordId: string, trashedVersion: number): Promise<boolean> {
    return this.write(async (manager) => {
      const repo = new RecordsRepository(manager);
      const record = await repo.lock(workspaceId, recordId);
      if (!record || record.status !== 'trashed' || record.version !== trashedVersion) return false;
      await eraseRecord(manager, record, null, { kind: 'retention' });
      return true;
    });
  }

  /**
   * The safety net behind the timers: erases every record trashed more than 30 days ago (for
   * example when Temporal could not be reached at trashing time). Returns how many it erased.
   */
  async eraseExpiredTrash(now = new Date()): Promise<number> {
    const expired: { workspace_id: string; id: string; version: number }[] = await this.dataSource.query(
      `SELECT workspace_id, id, version FROM records WHERE status = 'trashed' AND trashed_at <= $1 LIMIT 500`,
      [new Date(now.getTime() - TRASH_RETENTION_MS)],
    );
    let erased = 0;
    for (const record of expired) {
      if (await this.eraseIfStillTrashed(record.workspace_id, record.id, record.version)) erased += 1;
    }
    return erased;
  }

  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await writeTransaction(this.dataSource, work);
    this.onEventsCommitted();
    return result;
  }
}
