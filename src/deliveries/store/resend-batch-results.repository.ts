import type { EntityManager } from 'typeorm';
import type { OutcomeCounts } from '../../shared/webhooks/webhook-health';
import { ResendBatchResult } from '../resend/resend-batch.entity';
import type { ResendBatchResultView } from '../resend/resend-batch-view';
import { Delivery } from './delivery.entity';

/** A resend batch's results so far, each named by its delivery's event, in the batch's order. */
export async function resendBatchResults(
  manager: EntityManager,
  batchId: string,
): Promise<ResendBatchResultView[]> {
  return manager
    .createQueryBuilder(ResendBatchResult, 'r')
    .leftJoin(Delivery, 'd', 'd.id = r.delivery_id')
    .select(['r.delivery_id AS "deliveryId"', 'd.event AS event'])
    .addSelect(['r.resent_delivery_id AS "resentDeliveryId"', 'r.refusal AS refusal'])
    .where('r.batch_id = :batchId', { batchId })
    .orderBy('r.position', 'ASC')
    .getRawMany<ResendBatchResultView>();
}

/**
 * How the deliveries a batch resent stand now, each once by its state (delivery-state.ts: Failed
 * with a next attempt scheduled is retrying, without one failed for good). One query over the
 * batch's result rows (at most RESEND_BATCH_MAX) and their deliveries by primary key.
 */
export async function resentDeliveryOutcomes(
  manager: EntityManager,
  batchId: string,
): Promise<OutcomeCounts> {
  const [row] = await manager.query<Record<keyof OutcomeCounts, number>[]>(
    `SELECT count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
            count(*) FILTER (WHERE d.status = 'failed' AND d.next_attempt_at IS NULL)::int AS failed,
            count(*) FILTER (WHERE d.status = 'failed' AND d.next_attempt_at IS NOT NULL)::int AS retrying,
            count(*) FILTER (WHERE d.status IN ('pending', 'sending'))::int AS "inFlight"
       FROM resend_batch_results r
       JOIN deliveries d ON d.id = r.resent_delivery_id
      WHERE r.batch_id = $1`,
    [batchId],
  );
  return { delivered: row!.delivered, failed: row!.failed, retrying: row!.retrying, inFlight: row!.inFlight };
}
