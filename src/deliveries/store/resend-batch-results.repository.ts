import type { EntityManager } from 'typeorm';
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
