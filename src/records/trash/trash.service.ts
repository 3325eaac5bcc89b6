import type { DataSource, EntityManager } from 'typeorm';
import { conflictError } from '../../shared/app-error';
import type { Actor } from '../../identity/actor';
import type { Logger } from '../../logger';
import { TRASH_RETENTION_MS } from '../../shared/limits';
import { EMPTY_SNAPSHOT } from '../record-change';
import type { RecordView } from '../record-view';
import { assertMayWrite, RecordWrites, type RecordLocator, type WriteEventsDispatch } from '../record-writes';
import { eraseRecord } from './erasure';
import { RecordsRepository } from '../records.repository';
import type { WriteCause } from '../write-cause';

/** What another feature erases with a record, in the erasure's transaction. */
export type RecordErasedHook = (
  manager: EntityManager,
  workspaceId: string,
  recordId: string,
) => Promise<void>;

/** Starts and cancels the 30-day erasure timer of a trashed record (Temporal, in production). */
export interface TrashTimer {
  start(input: { workspaceId: string; recordId: string; trashedVersion: number }): Promise<void>;
  cancel(input: { recordId: string; trashedVersion: number }): Promise<void>;
}

/**
 * The Trash (docs/api.md#rest-endpoints): moving a record in and out of it, erasing it by hand, and its 30
 * days: a timer per trashing, the timer's end (erase if still trashed at that version), and a
 * sweep that erases what a timer missed.
 */
export class TrashService {
  private readonly writes: RecordWrites;

  constructor(
    private readonly dataSource: DataSource,
    private readonly timer: TrashTimer,
    private readonly logger: Logger,
    /** Dispatches a write's events in its transaction (the dispatcher). */
    dispatch: WriteEventsDispatch | undefined = undefined,
    /**
     * Called inside an erasure's transaction, so what other features kept of the record's values
     * (the bodies sent to webhooks) goes with it or not at all.
     */
    private readonly onRecordErased: RecordErasedHook = async () => undefined,
  ) {
    this.writes = new RecordWrites(dataSource, dispatch);
  }

  /** Moves a record to the Trash; it is erased 30 days later unless restored. */
  async trash(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<RecordView> {
    const { view } = await this.move(actor, cause, locator, 'trashed');
    await this.startTimer(actor.workspace.id, view.id, view.version);
    return view;
  }

  async restore(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<RecordView> {
    const { view, trashedVersion } = await this.move(actor, cause, locator, 'active');
    await this.cancelTimer(locator.recordId, trashedVersion);
    return view;
  }

  /**
   * Trashing and restoring: the status flips, the version steps, and one event reports the record
   * as leaving (`record.deleted`) or coming back (`record.restored`). The links stay stored (a
   * restore brings them back); the trashing event reports them as left.
   */
  private async move(
    actor: Actor,
    cause: WriteCause,
    locator: RecordLocator,
    to: 'trashed' | 'active',
  ): Promise<{ view: RecordView; trashedVersion: number }> {
    assertMayWrite(actor);
    let trashedVersion = 0;
    const view = await this.writes.write(async (manager) => {
      const { context, record } = await this.writes.lockReadable(manager, actor, locator);
      if (to === 'trashed' && record.status !== 'active')
        throw conflictError('The record is already in the Trash.', 'recordTrashed');
      if (to === 'active' && record.status !== 'trashed')
        throw conflictError('The record is not in the Trash.', 'recordNotTrashed');
      const current = await context.repo.snapshot(record);
      record.status = to;
      record.trashedAt = to === 'trashed' ? new Date() : null;
      record.version += 1;
      // A restore names the version the record was trashed at, the one before this move.
      trashedVersion = to === 'trashed' ? record.version : record.version - 1;
      await manager.save(record);
      const [event, before, after] =
        to === 'trashed'
          ? (['record.deleted', current, EMPTY_SNAPSHOT] as const)
          : (['record.restored', EMPTY_SNAPSHOT, current] as const);
      await this.writes.emit({ context, actorId: actor.user.id, cause, event, record, before, after });
      return this.writes.view(context, record, current);
    });
    return { view, trashedVersion };
  }

  /** Erases a trashed record at once (by hand). */
  async deletePermanently(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<void> {
    assertMayWrite(actor);
    let trashedVersion = 0;
    await this.writes.write(async (manager) => {
      const { context, record } = await this.writes.lockReadable(manager, actor, locator);
      if (record.status !== 'trashed') {
        throw conflictError('Only a record in the Trash can be deleted permanently.', 'recordNotTrashed');
      }
      trashedVersion = record.version;
      await eraseRecord(context.manager, record, actor.user.id, cause);
      await this.onRecordErased(context.manager, record.workspaceId, record.id);
    });
    await this.cancelTimer(locator.recordId, trashedVersion);
  }

  /**
   * The timer's end: erases the record if it is still in the Trash at the version it was trashed
   * with (a restore, or a later trashing, makes this a no-op). Returns whether it erased.
   */
  async eraseIfStillTrashed(workspaceId: string, recordId: string, trashedVersion: number): Promise<boolean> {
    return this.writes.write(async (manager) => {
      const repo = new RecordsRepository(manager);
      const record = await repo.lock(workspaceId, recordId);
      if (!record || record.status !== 'trashed' || record.version !== trashedVersion) return false;
      await eraseRecord(manager, record, null, { kind: 'retention' });
      await this.onRecordErased(manager, workspaceId, recordId);
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

  /** A record was just trashed at `trashedVersion`: start its erasure timer. */
  private async startTimer(workspaceId: string, recordId: string, trashedVersion: number): Promise<void> {
    try {
      await this.timer.start({ workspaceId, recordId, trashedVersion });
    } catch (error) {
      // The trash is committed; the retention sweep (eraseExpiredTrash) erases it on time anyway.
      this.logger.error({ err: error, recordId }, 'could not start the erasure timer');
    }
  }

  /** A record left the Trash (restored or erased by hand): its timer has nothing left to do. */
  private async cancelTimer(recordId: string, trashedVersion: number): Promise<void> {
    try {
      await this.timer.cancel({ recordId, trashedVersion });
    } catch (error) {
      // Harmless: the timer's activity erases only a record still trashed at that version.
      this.logger.warn({ err: error, recordId }, 'could not cancel the erasure timer');
    }
  }
}
