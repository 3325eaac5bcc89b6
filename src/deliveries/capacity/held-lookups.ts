import type { EntityManager } from 'typeorm';
import {
  HELD_COUNTED_UP_TO,
  HELD_IDS_SHOWN,
  type HeldLookup,
  type HeldSnapshot,
} from '../../shared/deliveries/held-deliveries';
import { EndpointStatesRepository, heldPlace, heldSummary } from '../store';

/** An endpoint's held deliveries as its held-deliveries workflow shows them. */
export async function heldSnapshot(manager: EntityManager, webhookId: string): Promise<HeldSnapshot> {
  const summary = await heldSummary(manager, webhookId, HELD_IDS_SHOWN, HELD_COUNTED_UP_TO);
  const endpoint = await new EndpointStatesRepository(manager).load(webhookId);
  return {
    count: summary.count,
    oldest: summary.oldest.map((held) => held.id),
    since: summary.oldest[0]?.waitingSince.toISOString() ?? null,
    endpoint: endpoint
      ? { state: endpoint.state, reason: endpoint.reason, since: new Date(endpoint.since).toISOString() }
      : null,
    readAt: new Date().toISOString(),
  };
}

/** Where a delivery stands, asked of the endpoint's workflow: held here (and how many ahead), or why not. */
export async function lookUpHeld(
  manager: EntityManager,
  webhookId: string,
  deliveryId: string,
): Promise<HeldLookup> {
  const place = /^[0-9a-f-]{36}$/i.test(deliveryId) ? await heldPlace(manager, webhookId, deliveryId) : null;
  if (!place)
    return { deliveryId, held: false, status: null, why: 'No delivery of this webhook has this id.' };
  if (place.held)
    return { deliveryId, held: true, ahead: place.ahead, waitingSince: place.waitingSince!.toISOString() };
  return {
    deliveryId,
    held: false,
    status: place.status,
    why: `Not held: its workflow is delivery-${deliveryId}.`,
  };
}
