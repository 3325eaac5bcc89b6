// The engine-ceiling workflows (bundled by the bench's own worker, like workflows/ by the real
// one): deterministic, no Node built-ins. One no-op activity each.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { proxyActivities, upsertSearchAttributes } from '@temporalio/workflow';

export interface EngineActivities {
  noop(): Promise<void>;
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
