import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineUpdate,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { HeldLookup, HeldRelease, HeldSnapshot } from '../src/shared/deliveries/held-deliveries';
import { describeHeld, HELD_IDS_SHOWN } from '../src/shared/deliveries/held-deliveries';
import { DeliveryStatusKey, HeldDeliveryIdsKey } from '../src/shared/temporal/search-attributes';

export interface HeldDeliveriesInput {
  workspaceId: string;
  webhookId: string;
}

export const heldDeliveriesWorkflowId = (webhookId: string) => `held-${webhookId}`;

/** The endpoint's held deliveries as last read: how many, since when, the oldest. */
export const heldQuery = defineQuery<HeldSnapshot | null>('held');
/** Where a delivery (by id) stands: held here, with how many ahead of it, or not held. */
export const findHeldUpdate = defineUpdate<HeldLookup, [string]>('findHeld');
/**
 * Starts held deliveries now, whatever the endpoint's state and its workspace's budget: the one
 * named (`{ deliveryId }`), or the oldest up to `limit` (default 1,000). Each starts once.
 */
export const releaseNowUpdate = defineUpdate<HeldRelease, [{ deliveryId?: string; limit?: number }]>(
  'releaseNow',
);

const { readHeldDeliveries, findHeldDelivery, releaseHeldDeliveries } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/** How often the workflow reads its endpoint's held deliveries again. */
const REFRESH_MS = 10_000;
/** Refreshes per run before it continues as new, so its history stays short. */
const REFRESHES_PER_RUN = 200;

/**
 * An endpoint's held deliveries, in Temporal (issue 33, item 3). A delivery held in PostgreSQL while
 * its endpoint is unhealthy has no workflow of its own yet (a dead endpoint's flood costs a row per
 * event, not a workflow); this workflow, one per endpoint with held deliveries, is where an operator
 * finds them: by WebhookId and WorkspaceId, `DeliveryStatus = "held"`, or `HeldDeliveryIds = "<id>"`
 * for the oldest. Its details say how many wait and since when; `findHeld` locates any delivery by id;
 * `releaseNow` starts them at once. The release passes start held deliveries as capacity allows
 * whether or not this runs: it shows and acts, it never holds anything itself. It ends when none is
 * held, and the release pass starts it again when one is.
 */
export async function heldDeliveriesWorkflow(input: HeldDeliveriesInput): Promise<HeldSnapshot> {
  const { webhookId, workspaceId } = input;
  let snapshot: HeldSnapshot | null = null;
  let readAgain = false;
  let shownIds = '';
  setHandler(heldQuery, () => snapshot);
  setHandler(findHeldUpdate, (deliveryId) => findHeldDelivery({ webhookId, deliveryId }), {
    validator: (deliveryId) => {
      if (typeof deliveryId !== 'string') throw new TypeError('findHeld takes a delivery id (a string).');
    },
  });
  setHandler(
    releaseNowUpdate,
    async (request) => {
      const released = await releaseHeldDeliveries({ ...request, webhookId, workspaceId });
      readAgain = true;
      return released;
    },
    { validator: validRelease },
  );
  for (let refresh = 0; ; refresh++) {
    const read = await readHeldDeliveries({ webhookId });
    snapshot = read;
    const ids = read.oldest.slice(0, HELD_IDS_SHOWN);
    if (ids.join() !== shownIds) {
      upsertSearchAttributes([{ key: HeldDeliveryIdsKey, value: ids }]);
      shownIds = ids.join();
    }
    setCurrentDetails(describeHeld(read));
    if (read.count === 0) break;
    if (refresh + 1 >= REFRESHES_PER_RUN || workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      return continueAsNew<typeof heldDeliveriesWorkflow>(input);
    }
    readAgain = false;
    await condition(() => readAgain, REFRESH_MS);
  }
  // Nothing held: a held-deliveries workflow that ended says so in the list.
  upsertSearchAttributes([{ key: DeliveryStatusKey, value: 'released' }]);
  await condition(allHandlersFinished);
  return snapshot!;
}

/** An operator's input, refused before anything is recorded when it is not what releaseNow takes. */
function validRelease(request: { deliveryId?: unknown; limit?: unknown } | undefined): void {
  if (request === undefined || request === null) return;
  if (typeof request !== 'object')
    throw new TypeError('releaseNow takes {} or {"deliveryId": "…"} or {"limit": n}.');
  if (request.deliveryId !== undefined && typeof request.deliveryId !== 'string')
    throw new TypeError('deliveryId must be a delivery id (a string).');
  if (request.limit !== undefined && !(Number.isInteger(request.limit) && (request.limit as number) >= 1))
    throw new TypeError('limit must be a whole number of at least 1.');
}
