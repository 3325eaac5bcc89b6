import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { writeTransaction } from '../../db/idempotent-write';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import type { Logger } from '../../logger';
import { StoredEvent } from '../../messaging/stored-event.entity';
import { loadModel } from '../../record-model/model.service';
import { loadRecordAccess } from '../../record-model/record-access';
import { conflictError } from '../../shared/app-error';
import { isRecordEvent, type DeliveredEvent } from '../../shared/events/event-catalog';
import { WebhooksRepository, type Webhook } from '../../webhooks/webhooks.repository';
import { webhookNotFound } from '../../webhooks/webhooks.service';
import type { DeliveryStarter } from '../engine/delivery-starter';
import { DeliveriesRepository, type Delivery } from '../store';
import type { DeliveryLabels } from '../log/delivery-labels';
import type { DeliveryView } from '../log/delivery-view';
import { deliveryView } from '../log/delivery-view-of';
import { activeRecordOwner } from '../engine/record-owner';
import { testEventData, type SampleRecordType } from './test-event';

/**
 * "Send test event": a sample event of one of the webhook's events, stored as sent (so retries,
 * Event Details and resend read it unchanged) and delivered by the same workflow as any other
 * delivery — template, headers, signature, outbound guard and retries included. It is marked
 * `data.test: true` in the envelope and `trigger: 'test'` in the log.
 */
export class TestEventsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: DeliveryStarter,
    private readonly temporalUiUrl: (delivery: Delivery) => string | null,
    private readonly logger: Logger,
  ) {}

  async send(actor: Actor, webhookId: string, event: DeliveredEvent): Promise<DeliveryView> {
    assertApiRight(actor, 'apiCreate');
    const manager = this.dataSource.manager;
    const webhook = await new WebhooksRepository(manager).find(actor.workspace.id, webhookId);
    if (!webhook) throw webhookNotFound();
    if (!webhook.enabled) throw conflictError('The webhook is disabled.', 'webhookDisabled');
    if (!webhook.events.includes(event) && !webhook.operationalEvents.includes(event)) {
      throw conflictError(`The webhook does not subscribe to ${event}.`, 'webhookNotSubscribed');
    }
    const ids = {
      recordId: randomUUID(),
      causeId: randomUUID(),
      entityId: randomUUID(),
      accountId: randomUUID(),
    };
    const type = isRecordEvent(event) ? await this.sampleType(webhook) : undefined;
    const data = testEventData(event, ids, type);
    const element = type ? { typeId: type.id, recordId: ids.recordId } : { entityId: ids.entityId };
    // A made-up record has no name to show.
    const labels: DeliveryLabels = {
      elementName: null,
      webhook: { id: webhook.id, description: webhook.description, deleted: false },
    };

    const delivery = await writeTransaction(
      this.dataSource,
      async (tx) => {
        const stored = await tx.save(
          tx.create(StoredEvent, {
            id: randomUUID(),
            workspaceId: actor.workspace.id,
            kind: 'test',
            event,
            connectedAccountId: null,
            providerEventId: null,
            occurredAt: new Date(),
            data,
            // Already dispatched: it goes to this webhook only, never fanned out to the others.
            dispatchedAt: new Date(),
          }),
        );
        return new DeliveriesRepository(tx).insertPending(actor.workspace.id, {
          webhookId: webhook.id,
          eventId: stored.id,
          event,
          url: webhook.url,
          element,
          trigger: 'test',
          resendOf: null,
          sourcesVersion: webhook.sourcesVersion,
        });
      },
      (row) => deliveryView(row, this.temporalUiUrl(row), labels),
    );
    try {
      await this.starter.startDelivery(delivery);
      await new DeliveriesRepository(manager).markWorkflowStarted(delivery.id);
    } catch (error) {
      // The row is committed: the dispatch sweep starts its workflow once Temporal answers.
      this.logger.warn({ err: error, deliveryId: delivery.id }, 'could not start the test delivery yet');
    }
    return deliveryView(delivery, this.temporalUiUrl(delivery), labels);
  }

  /**
   * The type a sample record event describes: the webhook's one source type, else the first type
   * its record owner may read; only fields the owner may read are shown (what a real delivery
   * would carry to this receiver).
   */
  private async sampleType(webhook: Webhook): Promise<SampleRecordType> {
    const manager = this.dataSource.manager;
    const owner = await activeRecordOwner(manager, webhook.workspaceId, webhook.recordOwnerUserId);
    const cannot = () =>
      conflictError(
        'The webhook’s record owner can read no record type to make a sample of.',
        'testEventNoRecordType',
      );
    if (!owner) throw cannot();
    const access = await loadRecordAccess(manager, webhook.workspaceId, owner.role);
    const model = await loadModel(manager, webhook.workspaceId);
    const sourceTypeIds = [
      webhook.recordTrigger?.query.typeId,
      ...(webhook.recordSources ?? []).map((source) => source.query.typeId),
    ].filter((id): id is string => Boolean(id));
    const candidates =
      new Set(sourceTypeIds).size === 1
        ? model.types.filter((type) => type.id === sourceTypeIds[0])
        : model.types;
    const type = candidates.find((candidate) => access.canReadType(candidate.id));
    if (!type) throw cannot();
    return {
      id: type.id,
      name: type.name,
      schemaRevision: model.schemaRevision,
      readableFields: type.fields.filter((field) => !access.isFieldRestricted(field.id)),
    };
  }
}
