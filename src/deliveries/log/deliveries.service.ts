import type { DataSource, EntityManager } from 'typeorm';
import { authorizationError, conflictError, notFoundError } from '../../shared/app-error';
import type { Page } from '../../http/paging';
import { writeTransaction } from '../../db/idempotent-write';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import type { Logger } from '../../logger';
import { loadRecordAccess, UNRESTRICTED_ACCESS } from '../../record-model/record-access';
import { isRecordEvent, isRetiredEvent } from '../../shared/events/event-catalog';
import { maySendRecordDeliveryAgain } from '../../shared/webhooks/ownership-rule';
import { WebhooksRepository } from '../../webhooks/webhooks.repository';
import { webhookNotFound } from '../../webhooks/webhooks.service';
import { loadDeliveryEvent, readablePayload } from '../engine/delivery-event';
import {
  DeliveriesRepository,
  DeliveryAttemptsRepository,
  loadLegacyEvents,
  type Delivery,
  type DeliveryListQuery,
} from '../store';
import { loadDeliveryLabels } from './delivery-labels';
import { loadDeliveryStats } from './delivery-stats.repository';
import type { DeliveryStatsView } from './delivery-stats-view';
import { statsWindow, type StatsRange } from '../../shared/deliveries/delivery-stats';
import type { DeliveryView, EventDetails, DeliveryPage } from './delivery-view';
import { attemptView, deliveryView } from './delivery-view-of';

/** Starts a resend's workflow (Temporal, in production). */
export interface ResendStarter {
  startResend(delivery: Delivery, originalDeliveryId: string): Promise<void>;
}

export const deliveryNotFound = () => notFoundError('Delivery not found.', 'deliveryNotFound');

/**
 * Whether the actor may send this delivery's event again (resend, Retry now): a record event only
 * as the webhook's record owner or an administrator (docs/api.md#permissions); other events with the
 * role's Create alone.
 */
export const mayActOnDelivery = (
  actor: Actor,
  delivery: Pick<Delivery, 'event'>,
  webhook: { recordOwnerUserId: string | null },
): boolean =>
  !isRecordEvent(delivery.event) ||
  maySendRecordDeliveryAgain(
    { userId: actor.user.id, isAdmin: actor.permissions.manageWorkspace },
    webhook.recordOwnerUserId,
  );

export type { DeliveryListQuery };

/** A page of the delivery log, with how many deliveries its filters match. */
export type DeliveryLogPage = Page<DeliveryView> & { total: DeliveryPage['total'] };

/**
 * The delivery log, Event Details and resend (docs/deliveries.md#the-delivery-log,
 * docs/deliveries.md#resend).
 */
export class DeliveriesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: ResendStarter,
    private readonly temporalUiUrl: (delivery: Delivery) => string | null,
    private readonly logger: Logger,
  ) {}

  /**
   * Newest first; `searchTerm` matches the URL and the event name. Deliveries outlive their
   * webhook. `total` counts what the filters match, up to DELIVERY_COUNT_CAP.
   */
  async list(actor: Actor, query: DeliveryListQuery): Promise<DeliveryLogPage> {
    assertApiRight(actor, 'apiRead');
    if (query.webhookId) await this.webhook(actor, query.webhookId);
    const { rows, next, total } = await this.repository().logPage(actor.workspace.id, query);
    const labels = await this.labels(actor, rows);
    return { data: rows.map((row) => deliveryView(row, this.temporalUiUrl(row), labels(row))), next, total };
  }

  /**
   * Deliveries by outcome over the range, per hour or day, of the workspace or of one of its
   * webhooks (a deleted one too, by its deliveries).
   */
  async stats(
    actor: Actor,
    query: { range: StatsRange; webhookId?: string },
    now = new Date(),
  ): Promise<DeliveryStatsView> {
    assertApiRight(actor, 'apiRead');
    if (query.webhookId) await this.webhook(actor, query.webhookId);
    const window = statsWindow(query.range, now);
    return loadDeliveryStats(this.dataSource.manager, actor.workspace.id, window, query.webhookId ?? null);
  }

  /**
   * The retired events the workspace's deliveries or webhooks hold: the Deliveries page offers
   * them in its event filter beside the catalog, and no others.
   */
  async legacyEvents(actor: Actor): Promise<{ events: string[] }> {
    assertApiRight(actor, 'apiRead');
    return { events: await loadLegacyEvents(this.dataSource.manager, actor.workspace.id) };
  }

  /** Record names are read with the viewer's current access (as Event Details' payload). */
  private async labels(actor: Actor, rows: readonly Delivery[]) {
    const { manager } = this.dataSource;
    const access = await loadRecordAccess(manager, actor.workspace.id, actor.role);
    return loadDeliveryLabels(manager, actor.workspace.id, access, rows);
  }

  /**
   * Event Details: the delivery, its attempts, and the event payload re-read with the viewer's
   * current access (restricted values shown as restricted; empty when the record cannot be read).
   */
  async details(actor: Actor, webhookId: string, deliveryId: string): Promise<EventDetails> {
    assertApiRight(actor, 'apiRead');
    const delivery = await this.delivery(actor, webhookId, deliveryId);
    const event = await loadDeliveryEvent(this.dataSource.manager, actor.workspace.id, delivery.eventId);
    const access = await loadRecordAccess(this.dataSource.manager, actor.workspace.id, actor.role);
    const payload = event ? readablePayload(event, access) : {};
    const attempts = await new DeliveryAttemptsRepository(this.dataSource.manager).history(delivery.id);
    const labels = await loadDeliveryLabels(this.dataSource.manager, actor.workspace.id, access, [delivery]);
    // The viewer may see a kept body when their access hides nothing of the event's data.
    const seesWholeEvent =
      event !== undefined &&
      JSON.stringify(payload) === JSON.stringify(readablePayload(event, UNRESTRICTED_ACCESS));
    const viewer = { isAdmin: actor.permissions.manageWorkspace, seesWholeEvent };
    return {
      ...deliveryView(delivery, this.temporalUiUrl(delivery), labels(delivery)),
      payload,
      attemptHistory: attempts.map((row) => attemptView(row, viewer)),
    };
  }

  /**
   * A new delivery of the same event to the webhook as it is now (its current URL, secret, headers
   * and template), in a new row; the original stays as it was (docs/deliveries.md#resend).
   * `alsoInTransaction` writes beside the new row, in its transaction (a batch's result row, whose
   * key makes a second resend of the same step roll back).
   */
  async resend(
    actor: Actor,
    webhookId: string,
    deliveryId: string,
    alsoInTransaction?: (manager: EntityManager, resent: Delivery) => Promise<void>,
  ): Promise<DeliveryView> {
    assertApiRight(actor, 'apiCreate');
    const original = await this.delivery(actor, webhookId, deliveryId);
    const webhook = await new WebhooksRepository(this.dataSource.manager).find(actor.workspace.id, webhookId);
    if (!webhook) throw webhookNotFound();
    if (isRetiredEvent(original.event)) {
      throw conflictError('Deliveries of retired events cannot be resent.', 'deliveryEventRetired');
    }
    if (original.status !== 'delivered' && original.status !== 'failed') {
      throw conflictError('A delivery can be resent once it is Delivered or Failed.', 'deliveryNotFinished');
    }
    if (!mayActOnDelivery(actor, original, webhook)) {
      throw authorizationError(
        'Only the webhook’s record owner or an administrator can resend a record event.',
        'deliveryResendNotOwner',
      );
    }
    if (!webhook.enabled) throw conflictError('The webhook is disabled.', 'webhookDisabled');
    if (!webhook.events.includes(original.event)) {
      throw conflictError(`The webhook no longer subscribes to ${original.event}.`, 'webhookNotSubscribed');
    }
    if (isRecordEvent(original.event) && original.sourcesVersion !== webhook.sourcesVersion) {
      throw conflictError(
        'The webhook’s record sources changed since this delivery.',
        'webhookSourcesChanged',
      );
    }
    // The resend names the same record and webhook as the original.
    const labels = (await this.labels(actor, [original]))(original);
    const resent = await writeTransaction(
      this.dataSource,
      async (manager) => {
        const row = await new DeliveriesRepository(manager).insertPending(actor.workspace.id, {
          webhookId: webhook.id,
          eventId: original.eventId,
          event: original.event,
          url: webhook.url,
          element: original.element,
          trigger: 'resend',
          resendOf: original.id,
          sourcesVersion: webhook.sourcesVersion,
        });
        await alsoInTransaction?.(manager, row);
        return row;
      },
      (row) => deliveryView(row, this.temporalUiUrl(row), labels),
    );
    try {
      await this.starter.startResend(resent, original.id);
      await this.repository().markWorkflowStarted(resent.id);
    } catch (error) {
      // The new row is committed: the dispatch sweep starts its delivery workflow once Temporal answers.
      this.logger.warn({ err: error, deliveryId: resent.id }, 'could not start the resend workflow yet');
    }
    return deliveryView(resent, this.temporalUiUrl(resent), labels);
  }

  /**
   * The delivery of this webhook in the actor's workspace, read to act on it: an unknown or foreign
   * webhook is webhookNotFound, as the list route answers, an unknown delivery deliveryNotFound.
   */
  async deliveryToActOn(actor: Actor, webhookId: string, deliveryId: string): Promise<Delivery> {
    return this.delivery(actor, webhookId, deliveryId);
  }

  /** The delivery's view with its labels read with the actor's current access. */
  async viewOf(actor: Actor, delivery: Delivery): Promise<DeliveryView> {
    return deliveryView(
      delivery,
      this.temporalUiUrl(delivery),
      (await this.labels(actor, [delivery]))(delivery),
    );
  }

  /** Resend by delivery id alone (MCP `resend_delivery`). */
  async resendById(actor: Actor, deliveryId: string): Promise<DeliveryView> {
    assertApiRight(actor, 'apiCreate');
    const delivery = await this.repository().find(actor.workspace.id, deliveryId);
    if (!delivery) throw deliveryNotFound();
    return this.resend(actor, delivery.webhookId, deliveryId);
  }

  private async webhook(actor: Actor, webhookId: string): Promise<void> {
    // A deleted webhook's deliveries stay readable under its id.
    const exists =
      (await new WebhooksRepository(this.dataSource.manager).exists(actor.workspace.id, webhookId)) ||
      (await this.repository().anyOfWebhook(actor.workspace.id, webhookId));
    if (!exists) throw webhookNotFound();
  }

  /** The webhook is checked first (as the list route does): an unknown or foreign one is webhookNotFound. */
  private async delivery(actor: Actor, webhookId: string, deliveryId: string): Promise<Delivery> {
    await this.webhook(actor, webhookId);
    const delivery = await this.repository().find(actor.workspace.id, deliveryId, webhookId);
    if (!delivery) throw deliveryNotFound();
    return delivery;
  }

  private repository(): DeliveriesRepository {
    return new DeliveriesRepository(this.dataSource.manager);
  }
}
