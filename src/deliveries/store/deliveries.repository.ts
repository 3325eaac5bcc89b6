import { IsNull, Not, type EntityManager } from 'typeorm';
import { keysetPage } from '../../db/keyset-page';
import type { PageCursor } from '../../http/cursor';
import type { ImportedDelivery, ImportedDeliveries } from '../../webhooks/legacy-import';
import { cappedCount } from './delivery-count';
import { Delivery, type DeliveryStatus } from './delivery.entity';
import { deliveryLogQuery, type DeliveryListQuery } from './delivery-log.repository';
import { searchMatches } from './delivery-search';

/** What a new Pending delivery made by hand is (a resend, a test event); the rest is the table's default. */
export type NewDelivery = Pick<
  Delivery,
  'webhookId' | 'eventId' | 'event' | 'url' | 'element' | 'trigger' | 'resendOf' | 'sourcesVersion'
>;

/** A webhook's newest delivery, as webhook health reads it (nulls when it has none). */
export interface NewestDelivery {
  id: string;
  status: DeliveryStatus | null;
  next_attempt_at: Date | null;
  created_at: Date | null;
}

/**
 * The `deliveries` table as the delivery log, resends, test events, Retry now and the features
 * outside deliveries read and write it, always within one workspace (the engine's statements, which
 * follow one delivery by its id, are beside it in this folder). Built on a manager: a transaction's
 * or the data source's.
 */
export class DeliveriesRepository {
  constructor(private readonly manager: EntityManager) {}

  /** The delivery of this workspace (and of this webhook, when named), or null. */
  async find(workspaceId: string, deliveryId: string, webhookId?: string): Promise<Delivery | null> {
    return webhookId
      ? this.manager.findOneBy(Delivery, { id: deliveryId, webhookId, workspaceId })
      : this.manager.findOneBy(Delivery, { id: deliveryId, workspaceId });
  }

  /** The webhook of a delivery of this workspace, or undefined for an unknown or foreign id. */
  async webhookIdOf(workspaceId: string, deliveryId: string): Promise<string | undefined> {
    const delivery = await this.manager.findOne(Delivery, {
      select: { webhookId: true },
      where: { id: deliveryId, workspaceId },
    });
    return delivery?.webhookId;
  }

  /** The ids of the webhook's deliveries waiting for their next attempt (Failed, a retry scheduled), oldest first. */
  async retryingOf(workspaceId: string, webhookId: string): Promise<string[]> {
    const rows = await this.manager.find(Delivery, {
      select: { id: true },
      where: { workspaceId, webhookId, status: 'failed', nextAttemptAt: Not(IsNull()) },
      order: { createdAt: 'ASC' },
    });
    return rows.map((row) => row.id);
  }

  /** Whether the workspace has a delivery of this webhook (a deleted webhook is known by them). */
  async anyOfWebhook(workspaceId: string, webhookId: string): Promise<boolean> {
    return this.manager.existsBy(Delivery, { webhookId, workspaceId });
  }

  /**
   * One page of the delivery log, newest first, and how many deliveries its filters match, counted
   * up to DELIVERY_COUNT_CAP.
   */
  async logPage(
    workspaceId: string,
    query: DeliveryListQuery,
  ): Promise<{ rows: Delivery[]; next: PageCursor | null; total: { count: number; capped: boolean } }> {
    const search = query.searchTerm
      ? await searchMatches(this.manager, workspaceId, query.searchTerm)
      : undefined;
    const builder = deliveryLogQuery(this.manager, workspaceId, query, search);
    const total = await cappedCount(builder.clone());
    // Nothing matches (a webhook with another webhook's URL, say): the count, free to read any
    // index, found that in a few pages, while the page's newest-first walk would read a whole range.
    if (total.count === 0) return { rows: [], next: null, total };
    const { rows, next } = await keysetPage(builder, 'd', query);
    return { rows, next, total };
  }

  /**
   * The webhook's Failed deliveries created at or after `from` that are failed for good and not
   * resent yet, oldest first, at most `limit`: their ids.
   */
  async failedForGoodSince(
    workspaceId: string,
    webhookId: string,
    from: Date,
    limit: number,
  ): Promise<string[]> {
    const chosen = await this.manager
      .createQueryBuilder(Delivery, 'd')
      .select('d.id')
      .where('d.workspace_id = :workspaceId AND d.webhook_id = :webhookId', { workspaceId, webhookId })
      .andWhere(`d.status = 'failed' AND d.next_attempt_at IS NULL AND d.created_at >= :from`, { from })
      .andWhere('NOT EXISTS (SELECT 1 FROM deliveries r WHERE r.resend_of = d.id)')
      .orderBy('d.created_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(limit)
      .getMany();
    return chosen.map((row) => row.id);
  }

  /**
   * Each webhook's newest delivery in the workspace, one row per webhook id (the deliveries
   * (webhook_id, created_at) index).
   */
  async newestOfWebhooks(workspaceId: string, webhookIds: readonly string[]): Promise<NewestDelivery[]> {
    return this.manager.query(
      `SELECT w.id, newest.status, newest.next_attempt_at, newest.created_at
         FROM unnest($2::uuid[]) AS w(id)
         LEFT JOIN LATERAL (
           SELECT status, next_attempt_at, created_at FROM deliveries d
            WHERE d.webhook_id = w.id AND d.workspace_id = $1
            ORDER BY created_at DESC, id DESC LIMIT 1
         ) newest ON true`,
      [workspaceId, webhookIds],
    );
  }

  /**
   * Of the workspace's enabled webhooks, those with no delivery at all, and those whose newest
   * delivery did not deliver (Failed, retrying or for good): what the health rule reads of the
   * newest delivery besides the counts. One probe of the deliveries (webhook_id, created_at) index
   * per enabled webhook (LIMIT 1, newest first), whatever the size of the log.
   */
  async newestOfEnabledWebhooks(
    workspaceId: string,
  ): Promise<{ withoutDelivery: string[]; lastNotDelivered: string[] }> {
    const [row] = (await this.manager.query(
      `SELECT coalesce(array_agg(w.id) FILTER (WHERE newest.status IS NULL), '{}') AS "withoutDelivery",
              coalesce(array_agg(w.id) FILTER (WHERE newest.status = 'failed'), '{}') AS "lastNotDelivered"
         FROM webhooks w
         LEFT JOIN LATERAL (
           SELECT status FROM deliveries d
            WHERE d.webhook_id = w.id AND d.workspace_id = $1
            ORDER BY created_at DESC, id DESC LIMIT 1
         ) newest ON true
        WHERE w.workspace_id = $1 AND w.enabled`,
      [workspaceId],
    )) as [{ withoutDelivery: string[]; lastNotDelivered: string[] }];
    return row;
  }

  /** A new Pending delivery of the workspace, saved (its workflow is started by the caller). */
  async insertPending(workspaceId: string, delivery: NewDelivery): Promise<Delivery> {
    return this.manager.save(this.manager.create(Delivery, { workspaceId, ...delivery, status: 'pending' }));
  }

  /** The delivery's workflow started (the dispatch sweep starts those without this mark). */
  async markWorkflowStarted(deliveryId: string): Promise<void> {
    await this.manager.update(Delivery, { id: deliveryId }, { workflowStartedAt: new Date() });
  }

  /**
   * Retry now was accepted: the record says the next attempt runs now, until that attempt opens and
   * records itself; the delivery as it is then. For a delivery the caller read in its workspace.
   */
  async nextAttemptNow(deliveryId: string, attempt: number): Promise<Delivery> {
    await this.manager
      .createQueryBuilder()
      .update(Delivery)
      .set({ nextAttemptAt: () => 'now()' })
      .where(`id = :id AND status = 'failed' AND next_attempt_at IS NOT NULL AND attempts < :attempt`, {
        id: deliveryId,
        attempt,
      })
      .execute();
    return this.manager.findOneByOrFail(Delivery, { id: deliveryId });
  }

  /**
   * Records a delivery made before this service (the legacy import): its outcome as it was, one
   * attempt, and workflow_started_at set, so it is history and never sent.
   */
  async insertImported(workspaceId: string, delivery: ImportedDelivery): Promise<void> {
    await this.manager.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, sources_version, status, status_code,
         response_message, attempts, workflow_started_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'event', $6, $7, $8, $9, 1, now(), $10, $10)`,
      [
        workspaceId,
        delivery.webhookId,
        delivery.eventId,
        delivery.event,
        delivery.url,
        delivery.sourcesVersion,
        delivery.status,
        delivery.statusCode,
        delivery.responseMessage,
        delivery.createdAt,
      ],
    );
  }
}

/** The port the legacy import writes its delivery records through (wired by the composition root). */
export const importedDeliveries: ImportedDeliveries = (manager) => {
  const repository = new DeliveriesRepository(manager);
  return (workspaceId, delivery) => repository.insertImported(workspaceId, delivery);
};
