// The engine workflows (bundled by the bench's own worker, like workflows/ by the real one):
// deterministic, no Node built-ins. One no-op activity each: regular in the ceilings, local in the floor.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { patched, proxyActivities, proxyLocalActivities, upsertSearchAttributes } from '@temporalio/workflow';

/** What the floor's attempt is told, as a delivery's attempt in the fast lane is. */
export interface FloorAttempt {
  deliveryId: string;
  workspaceId: string;
  webhookId: string;
  attempt: number;
  retryInMs: number | null;
}

export interface EngineActivities {
  noop(): Promise<void>;
  /** The floor's attempt: does nothing but tell the bench it ran, and "delivers". */
  attempt(request: FloorAttempt): Promise<{ status: 'delivered'; done: true }>;
}

const { noop } = proxyActivities<EngineActivities>({ startToCloseTimeout: '30 seconds' });

/** The engine ceiling proper: nothing but one activity. */
export async function emptyWorkflow(): Promise<void> {
  await noop();
}

/** The same search attribute the delivery workflow updates after each attempt. */
const DeliveryStatusKey = defineSearchAttributeKey('DeliveryStatus', SearchAttributeType.KEYWORD);

/**
 * Shaped like a delivery that succeeds at once, without its database and HTTP work: started with
 * the delivery's search attributes, memo and summary (engine.ts), one activity, one upsert of
 * DeliveryStatus, a result. The difference to emptyWorkflow is what the delivery's visibility costs.
 */
export async function deliveryShapedWorkflow(): Promise<{ status: string; attempts: number }> {
  await noop();
  upsertSearchAttributes([{ key: DeliveryStatusKey, value: 'delivered' }]);
  return { status: 'delivered', attempts: 1 };
}

// The attempt's options in workflows/delivery.workflow.ts.
const { attempt } = proxyLocalActivities<EngineActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** The delivery workflow's patch ids: a new delivery takes all three, each a marker in its history. */
const DELIVERY_PATCHES = ['delivery-status-on-change', 'delivery-local-attempts', 'delivery-lanes'];

/**
 * The engine floor: what workflows/delivery.workflow.ts does with the engine for a delivery that
 * succeeds at once in the fast lane, its attempt a no-op. Started eagerly with the delivery's
 * search attributes, memo, summary and fairness key (engine.ts); its three patches, one local
 * activity, one upsert of DeliveryStatus (the lane stays `fast`, so no DeliveryLane upsert), a result.
 */
export async function floorWorkflow(input: {
  deliveryId: string;
  workspaceId: string;
  webhookId: string;
}): Promise<{ status: string; attempts: number }> {
  for (const id of DELIVERY_PATCHES) patched(id);
  const outcome = await attempt({ ...input, attempt: 1, retryInMs: 10_000 });
  upsertSearchAttributes([{ key: DeliveryStatusKey, value: outcome.status }]);
  return { status: outcome.status, attempts: 1 };
}
