import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { authorizationError, notFoundError } from '../shared/app-error';
import { writeTransaction } from '../db/idempotent-write';
import type { Actor } from '../identity/actor';
import { findReadableType, type RecordModel, type TypeModel } from '../record-model/model.service';
import { modelOf } from '../record-model/model-cache';
import { recordAccessOf, type RecordAccess } from '../record-model/record-access';
import { CrmRecord } from './crm-record.entity';
import { diffSnapshots, linkedIds, type RecordSnapshot } from './record-change';
import type { RecordEvent, RecordEventName } from './record-event.entity';
import type { RecordView } from './record-view';
import { recordView } from './record-view-of';
import { RecordsRepository } from './records.repository';
import type { RecordEventData } from './redaction';
import { inSpan } from '../tracing/tracing';
import type { WriteCause } from './write-cause';

/** What one record write reads and writes through: the type addressed, its model and the actor's access. */
export interface WriteContext {
  workspaceId: string;
  manager: EntityManager;
  repo: RecordsRepository;
  model: RecordModel;
  type: TypeModel;
  access: RecordAccess;
}

/** One write's event: the record saved at its new version, and its parts before and after the write. */
export interface WriteEvent {
  context: WriteContext;
  actorId: string | null;
  cause: WriteCause;
  event: RecordEventName;
  record: CrmRecord;
  before: RecordSnapshot;
  after: RecordSnapshot;
}

/** A record as addressed by a route: its type (id, name or built-in key) and its id. */
export interface RecordLocator {
  typeRef: string;
  recordId: string;
}

export const recordNotFound = () => notFoundError('Record not found.', 'recordNotFound');

export function assertMayWrite(actor: Actor): void {
  if (actor.member.status !== 'active') {
    throw authorizationError('Inactive members cannot change records.', 'memberInactive');
  }
}

/**
 * How a write's events reach the webhooks that receive them: dispatched inside the write's own
 * transaction (the dispatcher, given by the composition root), so a write and its deliveries
 * commit together; what it returns runs once the write committed (start the workflows). Events
 * it leaves undispatched stay in the outbox for the dispatcher's kick or sweep.
 */
export interface WriteEventsDispatch {
  /** `writer`: who makes the write, as read for it (a record owner the dispatch need not read again). */
  inTransaction(manager: EntityManager, events: RecordEvent[], writer?: Actor): Promise<() => void>;
}

/** Without a dispatcher (tests of records alone): the events wait in the outbox. */
const LEAVE_IN_OUTBOX: WriteEventsDispatch = { inTransaction: async () => () => undefined };

/**
 * The steps every record write shares (the records service's edits, the Trash's moves): one
 * transaction that also appends the write's events to the outbox
 * (docs/architecture.md#one-record-write-to-a-received-webhook, step 2) and dispatches them, then
 * what the dispatch left for after the commit.
 */
export class RecordWrites {
  /** The events each open write transaction appended so far. */
  private readonly appended = new WeakMap<EntityManager, RecordEvent[]>();
  /** Who makes each open write (the actor its context was made for). */
  private readonly writers = new WeakMap<EntityManager, Actor>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatch: WriteEventsDispatch = LEAVE_IN_OUTBOX,
  ) {}

  /**
   * Runs a write in a transaction with its events' dispatch, then what follows the commit; traced
   * as one span, whose children are the workflow starts (docs/observability.md#traces).
   */
  async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return inSpan('record write', {}, async (span) => {
      let afterCommit = () => undefined as void;
      const result = await writeTransaction(this.dataSource, async (manager) => {
        const value = await work(manager);
        const events = this.appended.get(manager);
        span?.setAttribute('crm.record_events', events?.length ?? 0);
        if (events?.length)
          afterCommit = await this.dispatch.inTransaction(manager, events, this.writers.get(manager));
        return value;
      });
      afterCommit();
      return result;
    });
  }

  async context(manager: EntityManager, actor: Actor, typeRef: string): Promise<WriteContext> {
    this.writers.set(manager, actor);
    const model = await modelOf(manager, actor);
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
  async lockReadable(manager: EntityManager, actor: Actor, locator: RecordLocator, lock = true) {
    const context = await this.context(manager, actor, locator.typeRef);
    const record = lock
      ? await context.repo.lock(actor.workspace.id, locator.recordId)
      : await manager.findOneBy(CrmRecord, { workspaceId: actor.workspace.id, id: locator.recordId });
    if (!record || record.status === 'erased' || record.typeId !== context.type.id) throw recordNotFound();
    return { context, record };
  }

  /**
   * Appends a write's event to the outbox. Every write raises the record's version by one before it
   * emits, so the event spans `record.version - 1` to `record.version`; a deleted record has no after
   * version (docs/events.md#record-events).
   */
  async emit({ context, actorId, cause, event, record, before, after }: WriteEvent): Promise<void> {
    const change = diffSnapshots(before, after, await this.changeContext(context, before, after));
    const data: RecordEventData = {
      causeId: randomUUID(),
      cause,
      record: {
        ref: { typeId: record.typeId, recordId: record.id },
        schemaRevision: context.model.schemaRevision,
        beforeVersion: record.version - 1,
        afterVersion: event === 'record.deleted' ? null : record.version,
        ...change,
      },
    };
    const appended = await context.repo.appendEvent({
      workspaceId: record.workspaceId,
      event,
      actorId,
      record,
      data,
      occurredAt: new Date(),
    });
    const events = this.appended.get(context.manager) ?? [];
    events.push(appended);
    this.appended.set(context.manager, events);
  }

  async changeContext(context: WriteContext, ...snapshots: RecordSnapshot[]) {
    const related = await context.repo.related(context.workspaceId, context.model, linkedIds(...snapshots));
    const userNames = await context.repo.userNames([...new Set(snapshots.flatMap((s) => s.assignments))]);
    return {
      fields: context.type.fields,
      related: (id: string) => related.get(id) ?? { ref: { typeId: '', recordId: id }, display: null },
      userName: (id: string) => userNames.get(id) ?? null,
    };
  }

  async view(context: WriteContext, record: CrmRecord, snapshot: RecordSnapshot): Promise<RecordView> {
    const related = await context.repo.related(context.workspaceId, context.model, linkedIds(snapshot));
    const userNames = await context.repo.userNames(snapshot.assignments);
    return recordView(record, context.type, snapshot, context.access, { related, userNames });
  }
}
