import type { EntityManager } from 'typeorm';
import type { OutcomeCounts } from '../../shared/webhooks/webhook-health';
import { Delivery } from './delivery.entity';
import { ResendBatch, ResendBatchResult, type ResendRefusal } from './resend-batch.entity';

/** One delivery of a batch and what became of it, named by its delivery's event. */
export interface ResendBatchResultRow {
  deliveryId: string;
  event: string;
  resentDeliveryId: string | null;
  refusal: ResendRefusal | null;
}

/** A batch as it is asked for: everything but its id and the times the table sets. */
export type NewResendBatch = Omit<ResendBatch, 'id' | 'createdAt'>;

/** One delivery's step in its batch: the key of its result row, and its place in the batch. */
export interface ResendBatchStepKey {
  batchId: string;
  deliveryId: string;
  position: number;
}

/**
 * The one owner of resend_batches and resend_batch_results ("Resend failed since …"): the batches
 * asked for, and one result row per delivery handled, whose key guards against resending it twice.
 */
export class ResendBatchesRepository {
  constructor(private readonly manager: EntityManager) {}

  create(batch: NewResendBatch): Promise<ResendBatch> {
    return this.manager.save(this.manager.create(ResendBatch, batch));
  }

  /** A batch of the workspace, of one webhook when it is named. */
  find(workspaceId: string, batchId: string, webhookId?: string): Promise<ResendBatch | null> {
    return this.manager.findOneBy(ResendBatch, {
      id: batchId,
      ...(webhookId === undefined ? {} : { webhookId }),
      workspaceId,
    });
  }

  /** A batch by its id alone: for its own workflow's steps, which carry ids only. */
  findForStep(batchId: string): Promise<ResendBatch | null> {
    return this.manager.findOneBy(ResendBatch, { id: batchId });
  }

  async markWorkflowStarted(batchId: string): Promise<void> {
    await this.manager.update(ResendBatch, { id: batchId }, { workflowStartedAt: new Date() });
  }

  /** The oldest batches (at most 100) whose workflow did not start, created before `before`. */
  unstarted(before: Date): Promise<ResendBatch[]> {
    return this.manager
      .createQueryBuilder(ResendBatch, 'b')
      .where('b.workflow_started_at IS NULL AND b.created_at < :before', { before })
      .orderBy('b.created_at', 'ASC')
      .limit(100)
      .getMany();
  }

  async complete(batchId: string): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .update(ResendBatch)
      .set({ status: 'completed', completedAt: () => 'now()' })
      .where(`id = :batchId AND status = 'running'`, { batchId })
      .execute();
  }

  /** The step's resend; a second result for the same step fails on the key (a unique violation). */
  async insertResent(step: ResendBatchStepKey, resentDeliveryId: string): Promise<void> {
    const { batchId, deliveryId, position } = step;
    await this.manager.insert(ResendBatchResult, {
      batchId,
      deliveryId,
      position,
      resentDeliveryId,
      refusal: null,
    });
  }

  /** The step's refusal, unless the step already has a result (then that result stands). */
  async insertRefusedUnlessDone(step: ResendBatchStepKey, refusal: ResendRefusal): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(ResendBatchResult)
      .values({ ...step, resentDeliveryId: null, refusal })
      .orIgnore()
      .execute();
  }

  /** The step's result row, if it has one. */
  result(step: Pick<ResendBatchStepKey, 'batchId' | 'deliveryId'>): Promise<ResendBatchResult | null> {
    return this.manager.findOneBy(ResendBatchResult, { batchId: step.batchId, deliveryId: step.deliveryId });
  }

  /** A batch's results so far, each named by its delivery's event, in the batch's order. */
  results(batchId: string): Promise<ResendBatchResultRow[]> {
    return this.manager
      .createQueryBuilder(ResendBatchResult, 'r')
      .leftJoin(Delivery, 'd', 'd.id = r.delivery_id')
      .select(['r.delivery_id AS "deliveryId"', 'd.event AS event'])
      .addSelect(['r.resent_delivery_id AS "resentDeliveryId"', 'r.refusal AS refusal'])
      .where('r.batch_id = :batchId', { batchId })
      .orderBy('r.position', 'ASC')
      .getRawMany<ResendBatchResultRow>();
  }

  /**
   * How the deliveries a batch resent stand now, each once by its state (delivery-state.ts: Failed
   * with a next attempt scheduled is retrying, without one failed for good). One query over the
   * batch's result rows (at most RESEND_BATCH_MAX) and their deliveries by primary key.
   */
  async resentOutcomes(batchId: string): Promise<OutcomeCounts> {
    const [row] = await this.manager.query<Record<keyof OutcomeCounts, number>[]>(
      `SELECT count(*) FILTER (WHERE d.status = 'delivered')::int AS delivered,
              count(*) FILTER (WHERE d.status = 'failed' AND d.next_attempt_at IS NULL)::int AS failed,
              count(*) FILTER (WHERE d.status = 'failed' AND d.next_attempt_at IS NOT NULL)::int AS retrying,
              count(*) FILTER (WHERE d.status IN ('pending', 'sending'))::int AS "inFlight"
         FROM resend_batch_results r
         JOIN deliveries d ON d.id = r.resent_delivery_id
        WHERE r.batch_id = $1`,
      [batchId],
    );
    return {
      delivered: row!.delivered,
      failed: row!.failed,
      retrying: row!.retrying,
      inFlight: row!.inFlight,
    };
  }
}
