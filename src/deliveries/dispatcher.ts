import type { DataSource, EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { entityFromRow } from '../db/entity-from-row';
import type { Logger } from '../logger';
import { CrmRecord } from '../records/crm-record.entity';
import { loadModel, type RecordModel } from '../record-model/model.service';
import { recordAccessOf, type RecordAccess } from '../record-model/record-access';
import type { RecordEventName } from '../shared/record-event-names';
import type { RecordEventData } from '../records/redaction';
import type { MatchableRecord } from '../records/record-query';
import { RecordsRepository } from '../records/records.repository';
import { WebhooksRepository, type Webhook } from '../webhooks/webhooks.repository';
import { Delivery, type DeliveryElement } from './delivery.entity';
import { activeRecordOwner } from './record-owner';
import {
  changedFieldIdsOf,
  needsCurrentState,
  stateBeforeDeletion,
  webhookReceivesRecordEvent,
} from './subscription-match';

/** Starts the workflow of a delivery (Temporal, in production). */
export interface DeliveryStarter {
  startDelivery(delivery: Delivery): Promise<void>;
}

interface OutboxRow {
  id: string;
  workspace_id: string;
  event: RecordEventName;
  type_id: string;
  record_id: string;
  data: RecordEventData;
}

const BATCH = 200;
const START_CONCURRENCY = 8;

/**
 * From the outbox to deliveries (architecture.md, "Events: from a write to a POST", step 2):
 * matches undispatched events to the enabled webhooks that receive them, inserts one Pending
 * delivery per match and marks the events dispatched in one transaction, then starts one workflow
 * per delivery. Safe to run in several processes at once (SKIP LOCKED) and twice for the same event
 * (a unique index per webhook and event). `sweep()` starts what a crash or an outage left unstarted.
 */
export class Dispatcher {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: DeliveryStarter,
    private readonly logger: Logger,
  ) {}

  /** After a write commits: dispatch soon. Calls while a pass runs are folded into one more pass. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.dispatchPending().catch((error: unknown) =>
          this.logger.error({ err: error }, 'dispatch failed'),
        );
      } while (this.again);
    })().finally(() => (this.running = undefined));
  }

  /** Resolves when no dispatch pass is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Dispatches every undispatched event (record events, then messaging events); returns the deliveries it made. */
  async dispatchPending(): Promise<Delivery[]> {
    return [...(await this.drain('record')), ...(await this.drain('messaging'))];
  }

  private async drain(outbox: 'record' | 'messaging'): Promise<Delivery[]> {
    const table = outbox === 'record' ? 'record_events' : 'stored_events';
    const columns =
      outbox === 'record'
        ? `id, workspace_id, event, type_id, record_id, data`
        : `id, workspace_id, event, NULL AS type_id, NULL AS record_id, data`;
    const only = outbox === 'record' ? '' : `AND kind = 'messaging'`;
    const made: Delivery[] = [];
    for (;;) {
      const batch = await this.dataSource.transaction(async (manager) => {
        const events: OutboxRow[] = await manager.query(
          `SELECT ${columns} FROM ${table}
           WHERE dispatched_at IS NULL ${only} ORDER BY occurred_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [BATCH],
        );
        if (!events.length) return { events: 0, deliveries: [] as Delivery[] };
        const deliveries =
          outbox === 'record'
            ? await this.match(manager, events)
            : await this.matchMessaging(manager, events);
        await manager.query(`UPDATE ${table} SET dispatched_at = now() WHERE id = ANY($1::uuid[])`, [
          events.map((e) => e.id),
        ]);
        return { events: events.length, deliveries };
      });
      made.push(...batch.deliveries);
      await this.startAll(batch.deliveries);
      if (batch.events < BATCH) return made;
    }
  }

  /** A messaging event reaches every enabled webhook of its workspace that subscribes to it. */
  private async matchMessaging(manager: EntityManager, events: OutboxRow[]): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (const event of events) {
      const webhooks = await new WebhooksRepository(manager).enabledSubscribers(event.workspace_id, [
        event.event,
      ]);
      for (const webhook of webhooks) {
        const entityId = (event.data as unknown as { entityId?: string }).entityId;
        const inserted = await this.insert(manager, webhook, event, entityId ? { entityId } : null);
        if (inserted) deliveries.push(inserted);
      }
    }
    return deliveries;
  }

  /** The safety net: dispatch leftovers and start deliveries whose workflow never started. */
  async sweep(startedBeforeMs = 10_000): Promise<number> {
    await this.dispatchPending();
    const stale = await this.dataSource.manager
      .createQueryBuilder(Delivery, 'd')
      .where('d.workflow_started_at IS NULL AND d.created_at < :before', {
        before: new Date(Date.now() - startedBeforeMs),
      })
      .orderBy('d.created_at', 'ASC')
      .take(500)
      .getMany();
    await this.startAll(stale);
    return stale.length;
  }

  /** Starts workflows a few at a time (a start is a round trip to Temporal), then marks them started. */
  private async startAll(deliveries: Delivery[]): Promise<void> {
    for (let from = 0; from < deliveries.length; from += START_CONCURRENCY) {
      const chunk = deliveries.slice(from, from + START_CONCURRENCY);
      const results = await Promise.allSettled(chunk.map((delivery) => this.starter.startDelivery(delivery)));
      const started: string[] = [];
      results.forEach((result, index) => {
        if (result.status === 'fulfilled') started.push(chunk[index]!.id);
        // The sweep starts it later; the delivery row is already safe in the database.
        else
          this.logger.warn(
            { err: result.reason, deliveryId: chunk[index]!.id },
            'could not start a delivery workflow yet',
          );
      });
      if (started.length) {
        await this.dataSource.query(
          `UPDATE deliveries SET workflow_started_at = now() WHERE id = ANY($1::uuid[])`,
          [started],
        );
      }
    }
  }

  private async match(manager: EntityManager, events: OutboxRow[]): Promise<Delivery[]> {
    const deliveries: Delivery[] = [];
    for (const workspaceId of new Set(events.map((event) => event.workspace_id))) {
      const own = events.filter((event) => event.workspace_id === workspaceId);
      const webhooks = await new WebhooksRepository(manager).enabledSubscribers(workspaceId, [
        ...new Set(own.map((event) => event.event)),
      ]);
      if (!webhooks.length) continue;
      const model = await loadModel(manager, workspaceId);
      const owners = await this.ownerAccess(manager, workspaceId, webhooks, model);
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
          const subscribed = { ...webhook, ownerAccess: owners.get(webhook.recordOwnerUserId ?? '') };
          if (!webhookReceivesRecordEvent(subscribed, toMatch, fields)) continue;
          const inserted = await this.insert(manager, webhook, event, {
            typeId: event.type_id,
            recordId: event.record_id,
          });
          if (inserted) deliveries.push(inserted);
        }
      }
    }
    return deliveries;
  }

  private async insert(
    manager: EntityManager,
    webhook: Webhook,
    event: OutboxRow,
    element: DeliveryElement | null,
  ): Promise<Delivery | undefined> {
    const [row]: Record<string, unknown>[] = await manager.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version)
       VALUES ($1, $2, $3, $4, $5, $6, 'event', $7)
       ON CONFLICT (webhook_id, event_id) WHERE trigger = 'event' DO NOTHING RETURNING *`,
      [
        webhook.workspaceId,
        webhook.id,
        event.id,
        event.event,
        webhook.url,
        element === null ? null : JSON.stringify(element),
        webhook.sourcesVersion,
      ],
    );
    return row ? entityFromRow(manager, Delivery, row) : undefined;
  }

  /** Each record owner's current access; absent when the owner is gone or Inactive. */
  private async ownerAccess(
    manager: EntityManager,
    workspaceId: string,
    webhooks: Webhook[],
    model: RecordModel,
  ): Promise<Map<string, RecordAccess>> {
    const access = new Map<string, RecordAccess>();
    for (const ownerId of new Set(
      webhooks.map((webhook) => webhook.recordOwnerUserId).filter(Boolean) as string[],
    )) {
      const owner = await activeRecordOwner(manager, workspaceId, ownerId);
      if (owner) access.set(ownerId, recordAccessOf(owner.role, model));
    }
    return access;
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
