import { ActivityFailure, patched, proxyActivities, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { OutcomeCounts } from '../src/shared/webhooks/webhook-health';

export interface ResendFailedInput {
  batchId: string;
  /** The Failed deliveries to resend, oldest first, as the batch chose them. */
  deliveryIds: string[];
}

export interface ResendFailedResult {
  resent: number;
  refused: number;
  /**
   * How the resent deliveries stood when the batch ended (issue 33, item 2): each once, by its
   * state. Absent in batches that ended before it was kept.
   */
  deliveries?: OutcomeCounts;
}

type Tally = Pick<ResendFailedResult, 'resent' | 'refused'>;

export const resendFailedWorkflowId = (batchId: string) => `resend-batch-${batchId}`;

// Each resend is a regular activity (its input and outcome one row each in the Web UI's history,
// named by its summary). The step is idempotent, so a retry after a lost worker or database is
// harmless; a step that still cannot finish is recorded as refused, and the batch goes on.
const { resendBatchDelivery, refuseBatchDelivery, completeResendBatch, resentDeliveryOutcomes } =
  proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: 5,
    },
  });

const progress = (done: number, total: number, tally: Tally) =>
  `**${done} of ${total}** handled: ${tally.resent} resent, ${tally.refused} refused.`;

/**
 * The patch id of the batch's outcome: how its resent deliveries stand, in its result and its
 * final details (issue 33, item 2). Checked after the last resend, so a batch under way during the
 * upgrade reports it too; one that had ended replays as it ran.
 */
const BATCH_OUTCOMES = 'resend-batch-outcomes';

/**
 * How long the batch waits for resent deliveries still Pending or Sending, between reads (about
 * a minute in all). A first attempt takes at most the 5 s request timeout, so nearly every resend
 * has an outcome by then; a receiver whose endpoint is degraded can hold them longer, and they are
 * reported as in flight. A retrying delivery is not waited for: its schedule runs for up to about
 * 1.5 hours, and its own workflow (a red row if it fails for good) carries how it ends.
 */
const IN_FLIGHT_WAITS = ['1 second', '2 seconds', '4 seconds', '8 seconds', '15 seconds', '30 seconds'];

const outcomeLine = ({ delivered, failed, retrying, inFlight }: OutcomeCounts) =>
  `Resent deliveries: ${delivered} delivered, ${failed} failed, ${retrying} retrying, ${inFlight} in flight.`;

/**
 * The patch id of resends made a few at once (issue 37): up to RESENDS_AT_ONCE steps in flight
 * instead of one after another. Decided once, before the first step: a batch that began one after
 * another (its history has no marker) goes on so to its end, on any worker.
 */
const AT_ONCE = 'resend-batch-at-once';

/**
 * How many resends of one batch are in flight at once (docs/deliveries.md#resend-failed-since-).
 * Each step holds at most one database connection at a time, so a batch takes at most 8 of a
 * process's pool (20 by default) and leaves the rest to deliveries; its steps are regular
 * activities under the workspace's fairness key, so another workspace's tasks are not queued behind
 * them. The number is in the history (the first workflow task schedules that many steps): changing
 * it needs a new patch id.
 */
const RESENDS_AT_ONCE = 8;

/**
 * "Resend failed since …": resends the batch's deliveries a few at once, in the batch's order,
 * each under the rules of a single resend as the member who asked (their role as it is now); a
 * refusal is recorded for that delivery and the batch goes on. Progress shows as the workflow's
 * current details; the result counts the resends and the refusals, and how the resent deliveries
 * stood at the end.
 */
export async function resendFailedWorkflow(input: ResendFailedInput): Promise<ResendFailedResult> {
  const tally: Tally = { resent: 0, refused: 0 };
  const total = input.deliveryIds.length;
  const resendAt = async (position: number) => {
    tally[await resendStep(input, position)]++;
  };
  if (patched(AT_ONCE)) {
    let next = 0;
    let done = 0;
    setCurrentDetails(progress(done, total, tally));
    // Each lane takes the next step of the batch when its own ends: RESENDS_AT_ONCE in flight.
    const lane = async () => {
      while (next < total) {
        await resendAt(next++);
        setCurrentDetails(progress(++done, total, tally));
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESENDS_AT_ONCE, total) }, lane));
  } else {
    // Batches started before AT_ONCE: one after another, as they ran.
    for (let position = 0; position < total; position++) {
      setCurrentDetails(progress(position, total, tally));
      await resendAt(position);
    }
  }
  await completeResendBatch({ batchId: input.batchId });
  const handled = progress(total, total, tally);
  setCurrentDetails(handled);
  if (!patched(BATCH_OUTCOMES)) return tally;
  const deliveries = await resentOutcomes(input.batchId, handled);
  if (!deliveries) {
    setCurrentDetails(`${handled}\n\nHow the resent deliveries stand could not be read.`);
    return tally;
  }
  setCurrentDetails(`${handled}\n\n${outcomeLine(deliveries)}`);
  return { ...tally, deliveries };
}

/** One delivery of the batch, resent or refused; a step that cannot finish is recorded as refused. */
async function resendStep(input: ResendFailedInput, position: number): Promise<'resent' | 'refused'> {
  const deliveryId = input.deliveryIds[position]!;
  const step = { batchId: input.batchId, deliveryId, position };
  try {
    return await resendBatchDelivery.executeWithOptions(
      { summary: `resend ${deliveryId} (${position + 1} of ${input.deliveryIds.length})` },
      [step],
    );
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    return refuseBatchDelivery(step);
  }
}

/**
 * How the batch's resent deliveries stand once those still Pending or Sending have had about a
 * minute to end their first attempt. The batch row is already completed (the web app's dialog is
 * done): this is what the workflow's result says in the Web UI, so a batch whose resends all
 * failed reads so, not just "Completed".
 */
async function resentOutcomes(batchId: string, handled: string): Promise<OutcomeCounts | null> {
  try {
    let outcomes = await resentDeliveryOutcomes({ batchId });
    for (const wait of IN_FLIGHT_WAITS) {
      if (outcomes.inFlight === 0) break;
      setCurrentDetails(`${handled}\n\nWaiting for ${outcomes.inFlight} resent deliveries still in flight.`);
      await sleep(wait);
      outcomes = await resentDeliveryOutcomes({ batchId });
    }
    return outcomes;
  } catch (error) {
    // The resends are made and the batch completed: a read that keeps failing (the database away)
    // leaves the result without the outcome rather than failing a batch that did its work.
    if (!(error instanceof ActivityFailure)) throw error;
    return null;
  }
}
