import type { EntityManager } from 'typeorm';
import { entityFromRow } from '../../db/entity-from-row';
import { PreparedSelect } from '../../db/prepared';
import { optionalActorFromRow, withActor, type Actor } from '../../identity/actor';
import { RecordEvent } from '../../records/record-event.entity';
import { Webhook } from '../../webhooks/webhook.entity';
import { loadStoredEvent, type DeliveryEvent } from './delivery-event';
import type { Delivery } from '../store';
import { activeOwnerOnly } from './record-owner';

/** What an attempt reads before it sends. */
export interface AttemptSources {
  /** Null when the webhook was deleted (then nothing else is read). */
  webhook: Webhook | null;
  /** The webhook's record owner while an Active member (activeRecordOwner's rule). */
  owner: Actor | undefined;
  event: DeliveryEvent | undefined;
}

/**
 * The delivery's webhook as it is now, its record owner with their current role and the event, in
 * one query (a messaging event costs a second): every attempt reads them, retries included.
 */
export async function loadAttemptSources(
  manager: EntityManager,
  delivery: Delivery,
): Promise<AttemptSources> {
  const raw = await attemptSources.first(manager, {
    eventId: delivery.eventId,
    workspaceId: delivery.workspaceId,
    webhookId: delivery.webhookId,
  });
  if (!raw) return { webhook: null, owner: undefined, event: undefined };
  return {
    webhook: entityFromRow(manager, Webhook, raw, 'wh'),
    owner: activeOwnerOnly(optionalActorFromRow(manager, raw)),
    event: raw.e_id
      ? { kind: 'record', row: entityFromRow(manager, RecordEvent, raw, 'e') }
      : await loadStoredEvent(manager, delivery.workspaceId, delivery.eventId),
  };
}

const attemptSources = new PreparedSelect(
  ['eventId', 'workspaceId', 'webhookId'] as const,
  (manager, parameters) =>
    withActor(
      manager.createQueryBuilder(Webhook, 'wh'),
      'm.workspace_id = wh.workspace_id AND m.user_id = wh.record_owner_user_id',
    )
      .leftJoin(RecordEvent, 'e', 'e.id = :eventId AND e.workspace_id = wh.workspace_id', parameters)
      .addSelect('e')
      .where('wh.workspace_id = :workspaceId AND wh.id = :webhookId', parameters),
);
