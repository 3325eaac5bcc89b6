import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import type { Logger } from '../../logger';
import { CrmRecord } from '../../records/crm-record.entity';
import { modelAtRevision } from '../../record-model/model-cache';
import { recordAccessOf } from '../../record-model/record-access';
import type { Actor } from '../../identity/actor';
import type { RecordEventName } from '../../shared/events/record-event-names';
import { isOperationalEvent } from '../../shared/events/event-catalog';
import type { RecordEvent } from '../../records/record-event.entity';
import type { RecordEventData } from '../../records/redaction';
import type { MatchableRecord } from '../../records/query/record-query';
import { RecordsRepository } from '../../records/records.repository';
import { WebhooksRepository, type Webhook } from '../../webhooks/webhooks.repository';
import { notifyOnCommit } from '../../db/notifications';
import { activeTraceCarrier, type TraceCarrier } from '../../tracing/trace-carrier';
import {
  insertDispatched,
  unstartedBefore,
  type Delivery,
  type DeliveryElement,
  type OutboxTable,
} from '../store';
import type { DeliveryHolds, DeliveryStarter } from './delivery-starter';
import { activeOwnerOnly, activeRecordOwner } from './record-owner';
import { DELIVERY_STARTS_CHANNEL } from './worker-starts';
import { startDeliveries } from './start-deliveries';
import {
  changedFieldIdsOf,
  needsCurrentState,
  stateBeforeDeletion,
  webhookReceivesRecordEvent,
} from './subscription-match';

interface OutboxRow {
  id: string;
  workspace_id: string;
  event: RecordEventName;
  type_id: string;
  record_id: string;
  data: RecordEventData;
}

/** Where events wait for dispatch: record events, and events stored as sent (messaging, operational). */
export type Outbox = 'record' | 'messaging';
const OUTBOXES: readonly Outbox[] = ['record', 'messaging'];

/** An event that a webhook receives: one delivery to make. */
interface Match {
  webhook: Webhook;
  event: OutboxRow;
  element: DeliveryElement | null;
}

const BATCH = 200;

/**
 * Who starts the workflows of the deliveries this process dispatches: this process (it runs a worker
 * of the task queue, so its starts are eager), or the worker processes, woken by a notification
 * (an API process of the production topology; docs/topology.md#eager-start).
 */
export type StartedBy = 'this process' | 'worker processes';

/**
 * From the outbox to deliveries (docs/architecture.md#one-record-write-to-a-received-webhook, step 3):
 * matches undispatched events to the enabled webhooks that receive them, inserts one Pending
 * delivery per match and marks the events dispatched in one transaction, then starts one workflow
 * per delivery. Safe to run in several processes at once (SKIP LOCKED) and twice for the same event
 * (a unique index per webhook and event). `sweep()` starts what a crash or an outage left unstarted.
 */
export class Dispatcher {
  private running: Promise<void> | undefined;
  /** The outboxes a kick asked for since the running pass began. */
  private readonly pending = new Set<Outbox>();
  /** Starts of deliveries dispatched inside writes, not awaited by the writes. */
  private readonly starting = new Set<Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: DeliveryStarter,
    private readonly logger: Logger,
    /** Holds the new deliveries of endpoints that are not healthy (docs/capacity.md). */
    private readonly held?: DeliveryHolds,
    private readonly startedBy: StartedBy = 'this process',
  ) {}

  /**
   * After a write to `outbox` commits: dispatch it soon. Kicks while a pass runs are folded into
   * one more pass. Only the named outbox is read (a record write costs no look at messaging's).
   */
  kick(outbox: Outbox): void {
    this.pending.add(outbox);
    if (this.running) return;
    this.running = (async () => {
      while (this.pending.size) {
        const outboxes = OUTBOXES.filter((name) => this.pending.has(name));
        this.pending.clear();
        for (const name of outboxes) {
          await this.drain(name).catch((error: unknown) =>
            this.logger.error({ err: error, outbox: name }, 'dispatch failed'),
          );
        }
      }
    })().finally(() => (this.running = undefined));
  }

  /**
   * A record write's events, dispatched inside the write's transaction: the deliveries are
   * inserted and the events marked dispatched with the write, and their workflows start once it
   * committed (what this returns). Should matching fail, the events stay in the outbox and the
   * kick after the commit dispatches them the usual way.
   */
  async inTransaction(manager: EntityManager, written: RecordEvent[], writer?: Actor): Promise<() => void> {
    const events: OutboxRow[] = written.map((event) => ({
      id: event.id,
      workspace_id: event.workspaceId,
      event: event.event,
      type_id: event.typeId,
      record_id: event.recordId,
      data: event.data as unknown as RecordEventData,
    }));
    let matches: Match[];
    try {
      matches = await this.match(manager, events, writer);
    } catch (error) {
      this.logger.error({ err: error }, 'dispatch in the write failed; the outbox keeps its events');
      return () => this.kick('record');
    }
    // Kept with the deliveries (while tracing is on), so a worker process's start continues this
    // write's trace (docs/observability.md#where-a-trace-stops).
    const deliveries = await this.insertMarkingDispatched(
      manager,
      'record_events',
      events,
      matches,
      activeTraceCarrier(),
    );
    if (await this.leftToWorkers(manager, deliveries)) return () => undefined;
    return () => {
      if (!deliveries.length) return;
      // Not awaited: the write answers meanwhile. A start that fails is the sweep's to retry.
      const starting = this.startAll(deliveries)
        .catch((error: unknown) => this.logger.error({ err: error }, 'starting delivery workflows failed'))
        .finally(() => this.starting.delete(starting));
      this.starting.add(starting);
    };
  }

  /** Resolves when no dispatch pass is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running || this.starting.size) await Promise.all([this.running, ...this.starting]);
  }

  /** Dispatches every undispatched event (record events, then messaging events); returns the deliveries it made. */
  async dispatchPending(): Promise<Delivery[]> {
    // One look at both outboxes first: the sweep finds them empty almost always, and a drain's
    // transaction costs three statements even then.
    const [waiting] = (await this.dataSource.query(
      `SELECT EXISTS (SELECT 1 FROM record_events WHERE dispatched_at IS NULL) AS record,
              EXISTS (SELECT 1 FROM stored_events WHERE dispatched_at IS NULL AND kind = 'messaging') AS messaging`,
    )) as [Record<Outbox, boolean>];
    const made: Delivery[] = [];
    for (const outbox of OUTBOXES) if (waiting[outbox]) made.push(...(await this.drain(outbox)));
    return made;
  }

  private async drain(outbox: Outbox): Promise<Delivery[]> {
    const table = outbox === 'record' ? 'record_events' : 'stored_events';
    const columns =
      outbox === 'record'
        ? `id, workspace_id, event, type_id, record_id, data`
        : `id, workspace_id, event, NULL AS type_id, NULL AS record_id, data`;
    // Operational events (src/deliveries/alerts/) wait beside the messaging events: both are kept as sent.
    const only = outbox === 'record' ? '' : `AND kind IN ('messaging', 'operational')`;
    const made: Delivery[] = [];
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const events: OutboxRow[] = await manager.query(
          `SELECT ${columns} FROM ${table}
           WHERE dispatched_at IS NULL ${only} ORDER BY occurred_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [BATCH],
        );
        if (!events.length) return { events: 0, deliveries: [] as Delivery[], left: false };
        const matches =
          outbox === 'record'
            ? await this.match(manager, events)
            : await this.matchMessaging(manager, events);
        // No trace kept: a pass serves events of many writes, none of whose contexts it has.
        const deliveries = await this.insertMarkingDispatched(manager, table, events, matches, null);
        const left = await this.leftToWorkers(manager, deliveries);
        return { events: events.length, deliveries, left };
      });
      made.push(...batch.deliveries);
      if (!batch.left) await this.startAll(batch.deliveries);
      if (batch.events < BATCH) return made;
    }
  }

  /**
   * A messaging event reaches every enabled webhook of its workspace that subscribes to it; an
   * operational event every one but the webhook it is about (docs/events.md#operational-events).
   */
  private async matchMessaging(manager: EntityManager, events: OutboxRow[]): Promise<Match[]> {
    const matches: Match[] = [];
    for (const event of events) {
      const webhooks = await new WebhooksRepository(manager).enabledSubscribers(event.workspace_id, [
        event.event,
      ]);
      const { entityId, webhook: about } = event.data as unknown as {
        entityId?: string;
        webhook?: { id?: string };
      };
      for (const webhook of webhooks) {
        if (isOperationalEvent(event.event) && about?.id === webhook.id) continue;
        matches.push({ webhook, event, element: entityId ? { entityId } : null });
      }
    }
    return matches;
  }

  /** The safety net: dispatch leftovers and start deliveries whose workflow never started. */
  async sweep(startedBeforeMs = 10_000): Promise<number> {
    await this.dispatchPending();
    const stale = await unstartedBefore(this.dataSource.manager, new Date(Date.now() - startedBeforeMs));
    await this.startAll(stale);
    return stale.length;
  }

  /**
   * In a process that leaves starts to the worker processes: wakes them when `deliveries` has any to
   * start, once the transaction commits (they claim the rows, so a notification lost costs at most
   * the sweep's delay). True when the starts are theirs.
   */
  private async leftToWorkers(manager: EntityManager, deliveries: Delivery[]): Promise<boolean> {
    if (this.startedBy === 'this process') return false;
    if (deliveries.some((delivery) => !delivery.waitingSince))
      await notifyOnCommit(manager, DELIVERY_STARTS_CHANNEL);
    return true;
  }

  private async startAll(made: Delivery[]): Promise<void> {
    await startDeliveries(made, this.starter, this.dataSource.manager, this.logger);
  }

  private async match(manager: EntityManager, events: OutboxRow[], writer?: Actor): Promise<Match[]> {
    const matches: Match[] = [];
    for (const workspaceId of new Set(events.map((event) => event.workspace_id))) {
      const own = events.filter((event) => event.workspace_id === workspaceId);
      const webhooks = await new WebhooksRepository(manager).enabledSubscribers(workspaceId, [
        ...new Set(own.map((event) => event.event)),
      ]);
      if (!webhooks.length) continue;
      const owners = await this.activeOwners(manager, workspaceId, webhooks, writer);
      // Without an active record owner no webhook receives record events (their access shapes them).
      if (!owners.size) continue;
      // The owners' workspace row carries the current schema revision: the model read once per revision.
      const { workspace } = owners.values().next().value!;
      const model = await modelAtRevision(manager, workspaceId, workspace.schemaRevision);
      const access = new Map([...owners].map(([id, owner]) => [id, recordAccessOf(owner.role, model)]));
      const states = webhooks.some(needsCurrentState)
        ? await this.currentStates(manager, workspaceId, own)
        : new Map<string, MatchableRecord>();
      for (const event of own) {
        const fields = model.types.find((type) => type.id === event.type_id)?.fields ?? [];
        const toMatch = {
          event: event.event,
          typeId: event.type_id,
          changedFieldIds: changedFieldIdsOf(event.data),
          state:
            event.event === 'record.deleted'
              ? stateBeforeDeletion(event.type_id, event.data)
              : states.get(event.record_id),
        };
        for (const webhook of webhooks) {
          const subscribed = { ...webhook, ownerAccess: access.get(webhook.recordOwnerUserId ?? '') };
          if (!webhookReceivesRecordEvent(subscribed, toMatch, fields)) continue;
          matches.push({ webhook, event, element: { typeId: event.type_id, recordId: event.record_id } });
        }
      }
    }
    return matches;
  }

  /**
   * One statement: a Pending delivery per match (none twice for a webhook and event, whoever
   * dispatched it first) and the events marked dispatched. A delivery to an endpoint that is not
   * healthy is held (`waiting_since` set): its workflow is started by the release, not here.
   */
  private async insertMarkingDispatched(
    manager: EntityManager,
    table: OutboxTable,
    events: OutboxRow[],
    matches: Match[],
    traceContext: TraceCarrier | null,
  ): Promise<Delivery[]> {
    const held = this.held
      ? await this.held.holds(
          manager,
          matches.map(({ webhook }) => ({ webhookId: webhook.id, workspaceId: webhook.workspaceId })),
        )
      : matches.map(() => false);
    return insertDispatched(
      manager,
      table,
      events.map((event) => event.id),
      {
        workspaceIds: matches.map(({ webhook }) => webhook.workspaceId),
        webhookIds: matches.map(({ webhook }) => webhook.id),
        eventIds: matches.map(({ event }) => event.id),
        events: matches.map(({ event }) => event.event),
        urls: matches.map(({ webhook }) => webhook.url),
        elements: matches.map(({ element }) => (element === null ? null : JSON.stringify(element))),
        sourcesVersions: matches.map(({ webhook }) => webhook.sourcesVersion),
        held,
        startedHere: this.startedBy === 'this process',
        traceContext,
      },
    );
  }

  /**
   * The webhooks' record owners who are Active members now, by user id. The write's own writer, read
   * for this very write, is not read again (most webhooks are owned by whoever writes through them).
   */
  private async activeOwners(
    manager: EntityManager,
    workspaceId: string,
    webhooks: Webhook[],
    writer?: Actor,
  ): Promise<Map<string, Actor>> {
    const owners = new Map<string, Actor>();
    for (const ownerId of new Set(
      webhooks.map((webhook) => webhook.recordOwnerUserId).filter(Boolean) as string[],
    )) {
      const owner =
        writer?.workspace.id === workspaceId && writer.user.id === ownerId
          ? activeOwnerOnly(writer)
          : await activeRecordOwner(manager, workspaceId, ownerId);
      if (owner) owners.set(ownerId, owner);
    }
    return owners;
  }

  /** The current values and links of the events' records, as filters see them. */
  private async currentStates(manager: EntityManager, workspaceId: string, events: OutboxRow[]) {
    const ids = [
      ...new Set(events.filter((event) => event.event !== 'record.deleted').map((event) => event.record_id)),
    ];
    const records = ids.length ? await manager.findBy(CrmRecord, { workspaceId, id: In(ids) }) : [];
    const live = records.filter((record) => record.status !== 'erased');
    const snapshots = await new RecordsRepository(manager).snapshots(live);
    return new Map(
      live.map((record) => {
        const snapshot = snapshots.get(record.id)!;
        return [record.id, { typeId: record.typeId, values: snapshot.values, links: snapshot.links }];
      }),
    );
  }
}
