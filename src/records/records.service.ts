import type { DataSource } from 'typeorm';
import { conflictError } from '../shared/app-error';
import type { Page } from '../http/paging';
import type { Actor } from '../identity/actor';
import { CrmRecord } from './crm-record.entity';
import {
  diffSnapshots,
  EMPTY_SNAPSHOT,
  isEmptyChange,
  linkedIds,
  type RecordSnapshot,
} from './record-change';
import { applyRecordInput } from './record-input';
import { listRecords, type RecordListOptions } from './query/record-list';
import type { RecordView } from './record-view';
import { recordView } from './record-view-of';
import {
  assertMayWrite,
  RecordWrites,
  type RecordLocator,
  type WriteContext,
  type WriteEventsDispatch,
} from './record-writes';
import type { RecordWriteBody } from './records.schemas';
import type { WriteCause } from './write-cause';

/**
 * Record writes and reads. Every write runs in one transaction that also appends its events to
 * the outbox (docs/architecture.md#one-record-write-to-a-received-webhook, step 2): no event without its
 * write, no write without its events. An update that changes nothing writes nothing.
 */
export class RecordsService {
  private readonly writes: RecordWrites;

  constructor(
    private readonly dataSource: DataSource,
    /** Dispatches a write's events in its transaction (the dispatcher). */
    dispatch?: WriteEventsDispatch,
  ) {
    this.writes = new RecordWrites(dataSource, dispatch);
  }

  async create(
    actor: Actor,
    cause: WriteCause,
    typeRef: string,
    input: RecordWriteBody,
  ): Promise<RecordView> {
    assertMayWrite(actor);
    return this.writes.write(async (manager) => {
      const context = await this.writes.context(manager, actor, typeRef);
      const next = await applyRecordInput(
        manager,
        this.inputContext(actor, cause, context),
        EMPTY_SNAPSHOT,
        input,
      );
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
      return this.saveParts(context, actor, cause, 'record.created', record, EMPTY_SNAPSHOT, next);
    });
  }

  async update(
    actor: Actor,
    cause: WriteCause,
    locator: RecordLocator,
    input: RecordWriteBody,
  ): Promise<RecordView> {
    assertMayWrite(actor);
    return this.writes.write(async (manager) => {
      const { context, record } = await this.writes.lockReadable(manager, actor, locator);
      if (record.status !== 'active')
        throw conflictError('The record is in the Trash; restore it first.', 'recordTrashed');
      const previous = await context.repo.snapshot(record);
      const next = await applyRecordInput(manager, this.inputContext(actor, cause, context), previous, input);
      const change = diffSnapshots(previous, next, await this.writes.changeContext(context, previous, next));
      if (isEmptyChange(change)) return this.writes.view(context, record, previous);
      record.values = next.values;
      record.version += 1;
      await manager.save(record);
      return this.saveParts(context, actor, cause, 'record.updated', record, previous, next);
    });
  }

  /**
   * The last steps of a create or an update, once the record row is saved at its new version: its
   * links, assignments and identities, its event from the version before, and the view of it.
   */
  private async saveParts(
    context: WriteContext,
    actor: Actor,
    cause: WriteCause,
    event: 'record.created' | 'record.updated',
    record: CrmRecord,
    before: RecordSnapshot,
    after: RecordSnapshot,
  ): Promise<RecordView> {
    await context.repo.writeParts(actor.workspace.id, record.id, before, after);
    await this.writes.emit({ context, actorId: actor.user.id, cause, event, record, before, after });
    return this.writes.view(context, record, after);
  }

  /** One page of records of a type the actor can read, newest first. */
  async list(actor: Actor, typeRef: string, options: RecordListOptions): Promise<Page<RecordView>> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const context = await this.writes.context(manager, actor, typeRef);
      const { records, next } = await listRecords(
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
      return { data, next };
    });
  }

  async get(actor: Actor, locator: RecordLocator): Promise<RecordView> {
    return this.dataSource.transaction(async (manager) => {
      const { context, record } = await this.writes.lockReadable(manager, actor, locator, false);
      return this.writes.view(context, record, await context.repo.snapshot(record));
    });
  }

  /** A write's fields may be named by id or name; a refused name points to where ids are read. */
  private inputContext(actor: Actor, cause: WriteCause, context: WriteContext) {
    return {
      workspaceId: actor.workspace.id,
      type: context.type,
      access: context.access,
      modelSource: cause.kind === 'mcp' ? 'get_record_model' : 'POST /api/v1/model/read',
    };
  }
}
