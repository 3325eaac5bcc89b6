import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { authorizationError, conflictError, notFoundError } from '../shared/app-error';
import { writeTransaction } from '../http/idempotent-write';
import type { Actor } from '../identity/actor';
import type { Logger } from '../logger';
import { CrmRecord } from './crm-record.entity';
import { findReadableType, loadModel, type RecordModel, type TypeModel } from '../record-model/model.service';
import { recordAccessOf, type RecordAccess } from '../record-model/record-access';
import {
  diffSnapshots,
  EMPTY_SNAPSHOT,
  isEmptyChange,
  linkedIds,
  type RecordSnapshot,
} from './record-change';
import type { RecordEventName } from './record-event.entity';
import { applyRecordInput } from './record-input';
import { listRecords, type RecordListOptions } from './record-list';
import type { RecordView } from './record-view';
import { recordView } from './record-view-of';
import { RecordsRepository } from './records.repository';
import type { RecordWriteBody } from './records.schemas';
import type { RecordEventData } from './redaction';
import { eraseRecord } from './erasure';
import { TrashLifecycle, type TrashTimer } from './trash-lifecycle';
import type { WriteCause } from './write-cause';

export type { TrashTimer, WriteCause };

interface WriteContext {
  workspaceId: string;
  manager: EntityManager;
  repo: RecordsRepository;
  model: RecordModel;
  type: TypeModel;
  access: RecordAccess;
}

/** A record as addressed by a route: its type (id, name or built-in key) and its id. */
export interface RecordLocator {
  typeRef: string;
  recordId: string;
}

export const recordNotFound = () => notFoundError('Record not found.', 'recordNotFound');

/**
 * Record writes and reads. Every write runs in one transaction that also appends its events to
 * the outbox (architecture.md, "Events: from a write to a POST", step 1): no event without its
 * write, no write without its events. An update that changes nothing writes nothing.
 */
export class RecordsService {
  constructor(
    private readonly dataSource: DataSource,
    trashTimer: TrashTimer,
    logger: Logger,
    /** Called after a write with events commits (the dispatcher's kick). */
    private readonly onEventsCommitted: () => void = () => undefined,
  ) {
    this.trashLifecycle = new TrashLifecycle(dataSource, trashTimer, logger, onEventsCommitted);
  }

  /** The 30-day erasure of trashed records: timers, their end, and the sweep behind them. */
  readonly trashLifecycle: TrashLifecycle;

  /** Runs a write in a transaction and, once it committed, tells the dispatcher. */
  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const result = await writeTransaction(this.dataSource, work);
    this.onEventsCommitted();
    return result;
  }

  async create(
    actor: Actor,
    cause: WriteCause,
    typeRef: string,
    input: RecordWriteBody,
  ): Promise<RecordView> {
    assertMayWrite(actor);
    return this.write(async (manager) => {
      const context = await this.context(manager, actor, typeRef);
      const next = await applyRecordInput(manager, this.inputContext(actor, context), EMPTY_SNAPSHOT, input);
      const record = await manager.save(
        manager.create(CrmRecord, {
          workspaceId: actor.workspace.id,
          typeId: context.type.id,
          version: 1,
          values: next.values,
          status: 'active',
          createdBy: actor.user.id,
        }),
      );
      await context.repo.writeParts(actor.workspace.id, record.id, EMPTY_SNAPSHOT, next);
      await this.emit(context, actor.user.id, cause, 'record.created', record, EMPTY_SNAPSHOT, next, 0, 1);
      return this.view(context, record, next);
    });
  }

  async update(
    actor: Actor,
    cause: WriteCause,
    locator: RecordLocator,
    input: RecordWriteBody,
  ): Promise<RecordView> {
    assertMayWrite(actor);
    return this.write(async (manager) => {
      const { context, record } = await this.lockReadable(manager, actor, locator);
      if (record.status !== 'active')
        throw conflictError('The record is in the Trash; restore it first.', 'recordTrashed');
      const previous = await context.repo.snapshot(record);
      const next = await applyRecordInput(manager, this.inputContext(actor, context), previous, input);
      const change = diffSnapshots(previous, next, await this.changeContext(context, previous, next));
      if (isEmptyChange(change)) return this.view(context, record, previous);
      record.values = next.values;
      record.version += 1;
      await manager.save(record);
      await context.repo.writeParts(actor.workspace.id, record.id, previous, next);
      await this.emit(
        context,
        actor.user.id,
        cause,
        'record.updated',
        record,
        previous,
        next,
        record.version - 1,
        record.version,
      );
      return this.view(context, record, next);
    });
  }

  /** Moves a record to the Trash; it is erased 30 days later unless restored. */
  async trash(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<RecordView> {
    assertMayWrite(actor);
    const view = await this.write(async (manager) => {
      const { context, record } = await this.lockReadable(manager, actor, locator);
      if (record.status !== 'active')
        throw conflictError('The record is already in the Trash.', 'recordTrashed');
      const current = await context.repo.snapshot(record);
      record.status = 'trashed';
      record.trashedAt = new Date();
      record.version += 1;
      await manager.save(record);
      // The links stay stored (a restore brings them back); the event reports them as left.
      await this.emit(
        context,
        actor.user.id,
        cause,
        'record.deleted',
        record,
        current,
        EMPTY_SNAPSHOT,
        record.version - 1,
        null,
      );
      return this.view(context, record, current);
    });
    await this.trashLifecycle.trashed(actor.workspace.id, view.id, view.version);
    return view;
  }

  async restore(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<RecordView> {
    assertMayWrite(actor);
    let trashedVersion = 0;
    const view = await this.write(async (manager) => {
      const { context, record } = await this.lockReadable(manager, actor, locator);
      if (record.status !== 'trashed')
        throw conflictError('The record is not in the Trash.', 'recordNotTrashed');
      trashedVersion = record.version;
      const current = await context.repo.snapshot(record);
      record.status = 'active';
      record.trashedAt = null;
      record.version += 1;
      await manager.save(record);
      await this.emit(
        context,
        actor.user.id,
        cause,
        'record.restored',
        record,
        EMPTY_SNAPSHOT,
        current,
        trashedVersion,
        record.version,
      );
      return this.view(context, record, current);
    });
    await this.trashLifecycle.leftTrash(locator.recordId, trashedVersion);
    return view;
  }

  /** Erases a trashed record at once (by hand). */
  async deletePermanently(actor: Actor, cause: WriteCause, locator: RecordLocator): Promise<void> {
    assertMayWrite(actor);
    let trashedVersion = 0;
    await this.write(async (manager) => {
      const { context, record } = await this.lockReadable(manager, actor, locator);
      if (record.status !== 'trashed') {
        throw conflictError('Only a record in the Trash can be deleted permanently.', 'recordNotTrashed');
      }
      trashedVersion = record.version;
      await eraseRecord(context.manager, record, actor.user.id, cause);
    });
    await this.trashLifecycle.leftTrash(locator.recordId, trashedVersion);
  }

  /** One page of records of a type the actor can read, newest first. */
  async list(
    actor: Actor,
    typeRef: string,
    options: RecordListOptions,
  ): Promise<{ data: RecordView[]; nextCursor: string | null }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const context = await this.context(manager, actor, typeRef);
      const { records, nextCursor } = await listRecords(
        manager,
        actor.workspace.id,
        context.type,
        context.access,
        options,
      );
      const snapshots = await context.repo.snapshots(records);
      const all = [...snapshots.values()];
      const related = await context.repo.related(context.workspaceId, context.model, linkedIds(...all));
      const userNames = await context.repo.userNames([...new Set(all.flatMap((s) => s.assignments))]);
      const data = records.map((record) =>
        recordView(record, context.type, snapshots.get(record.id)!, context.access, { related, userNames }),
      );
      return { data, nextCursor };
    });
  }

  async get(actor: Actor, locator: RecordLocator): Promise<RecordView> {
    return this.dataSource.transaction(async (manager) => {
      const { context, record } = await this.lockReadable(manager, actor, locator, false);
      return this.view(context, record, await context.repo.snapshot(record));
    });
  }

  private async emit(
    context: WriteContext,
    actorId: string | null,
    cause: WriteCause,
    event: RecordEventName,
    record: CrmRecord,
    before: RecordSnapshot,
    after: RecordSnapshot,
    beforeVersion: number,
    afterVersion: number | null,
  ): Promise<void> {
    const change = diffSnapshots(before, after, await this.changeContext(context, before, after));
    const data: RecordEventData = {
      causeId: randomUUID(),
      cause,
      record: {
        ref: { typeId: record.typeId, recordId: record.id },
        schemaRevision: context.model.schemaRevision,
        beforeVersion,
        afterVersion,
        ...change,
      },
    };
    await context.repo.appendEvent({
      workspaceId: record.workspaceId,
      event,
      actorId,
      record,
      data,
      occurredAt: new Date(),
    });
  }

  private async changeContext(context: WriteContext, ...snapshots: RecordSnapshot[]) {
    const related = await context.repo.related(context.workspaceId, context.model, linkedIds(...snapshots));
    const userNames = await context.repo.userNames([...new Set(snapshots.flatMap((s) => s.assignments))]);
    return {
      fields: context.type.fields,
      related: (id: string) => related.get(id) ?? { ref: { typeId: '', recordId: id }, display: null },
      userName: (id: string) => userNames.get(id) ?? null,
    };
  }

  private async view(
    context: WriteContext,
    record: CrmRecord,
    snapshot: RecordSnapshot,
  ): Promise<RecordView> {
    const related = await context.repo.related(context.workspaceId, context.model, linkedIds(snapshot));
    const userNames = await context.repo.userNames(snapshot.assignments);
    return recordView(record, context.type, snapshot, context.access, { related, userNames });
  }

  private async context(manager: EntityManager, actor: Actor, typeRef: string): Promise<WriteContext> {
    const model = await loadModel(manager, actor.workspace.id);
    const access = recordAccessOf(actor.role, model);
    const type = findReadableType(model, access, typeRef);
    return {
      workspaceId: actor.workspace.id,
      manager,
      repo: new RecordsRepository(manager),
      model,
      type,
      access,
    };
  }

  /**
   * The record, locked, if it is of the addressed type and the actor can read that type;
   * otherwise not_found, as if it did not exist.
   */
  private async lockReadable(manager: EntityManager, actor: Actor, locator: RecordLocator, lock = true) {
    const context = await this.context(manager, actor, locator.typeRef);
    const record = lock
      ? await context.repo.lock(actor.workspace.id, locator.recordId)
      : await manager.findOneBy(CrmRecord, { workspaceId: actor.workspace.id, id: locator.recordId });
    if (!record || record.status === 'erased' || record.typeId !== context.type.id) throw recordNotFound();
    return { context, record };
  }

  private inputContext(actor: Actor, context: WriteContext) {
    return { workspaceId: actor.workspace.id, type: context.type, access: context.access };
  }
}

function assertMayWrite(actor: Actor): void {
  if (actor.member.status !== 'active') {
    throw authorizationError('Inactive members cannot change records.', 'memberInactive');
  }
}
