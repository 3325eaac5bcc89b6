import type { EntityManager } from 'typeorm';
import { ResendBatchesRepository, type ResendBatch } from '../store';
import type { ResendBatchResultView, ResendBatchView } from './resend-batch-view';

/** The batch with its results so far (each named by its delivery's event), in the batch's order. */
export async function loadResendBatchView(
  manager: EntityManager,
  batch: ResendBatch,
): Promise<ResendBatchView> {
  return resendBatchView(batch, await new ResendBatchesRepository(manager).results(batch.id));
}

export function resendBatchView(batch: ResendBatch, results: ResendBatchResultView[]): ResendBatchView {
  return {
    id: batch.id,
    webhookId: batch.webhookId,
    status: batch.status,
    since: batch.since.toISOString(),
    limit: batch.limit,
    total: batch.deliveryIds.length,
    moreRemained: batch.moreRemained,
    resent: results.filter((result) => result.resentDeliveryId !== null).length,
    refused: results.filter((result) => result.refusal !== null).length,
    results: results.map((result) => ({
      deliveryId: result.deliveryId,
      event: result.event,
      resentDeliveryId: result.resentDeliveryId,
      refusal: result.refusal,
    })),
    createdAt: batch.createdAt.toISOString(),
    completedAt: batch.completedAt?.toISOString() ?? null,
  };
}
