import type { DataSource } from 'typeorm';
import { writeTransaction } from '../../db/idempotent-write';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import type { Logger } from '../../logger';
import { conflictError, notFoundError } from '../../shared/app-error';
import { RESEND_BATCH_MAX } from '../../shared/limits';
import { resendSince } from '../../shared/deliveries/resend-batch.rules';
import { WebhooksRepository } from '../../webhooks/webhooks.repository';
import { webhookNotFound } from '../../webhooks/webhooks.service';
import { DeliveriesRepository, ResendBatchesRepository, type ResendBatch } from '../store';
import type { ResendBatchView } from './resend-batch-view';
import type { ResendFailedPreview } from './resend-batch-request';
import type { ResendBatchStarter } from '../engine/delivery-starter';
import { loadResendBatchView, resendBatchView } from './resend-batch-view-of';

export const resendBatchNotFound = () => notFoundError('Resend batch not found.', 'resendBatchNotFound');

/**
 * "Resend failed since …" (issue 13): a bounded batch of resends of one webhook's Failed
 * deliveries, run by a Temporal workflow (workflows/resend-failed.workflow.ts) whose steps are in
 * resend-batch-steps.ts; its progress is read here.
 */
export class ResendBatchesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly starter: ResendBatchStarter,
    private readonly logger: Logger,
  ) {}

  /**
   * Chooses the webhook's Failed deliveries created at or after `since`, oldest first, at most
   * RESEND_BATCH_MAX, and starts resending them. A delivery with retries still to come is not
   * Failed for good and is left to its schedule; one already resent is left too (its resend
   * stands for it, and is chosen itself if it failed). Needs what a single resend needs.
   */
  async start(
    actor: Actor & { apiKeyId?: string; oauthConnectionId?: string },
    webhookId: string,
    since: string,
  ): Promise<ResendBatchView> {
    assertApiRight(actor, 'apiCreate');
    const webhook = await new WebhooksRepository(this.dataSource.manager).find(actor.workspace.id, webhookId);
    if (!webhook) throw webhookNotFound();
    const from = resendSince(since, new Date());
    if (!webhook.enabled) throw conflictError('The webhook is disabled.', 'webhookDisabled');

    const chosen = await this.chosen(actor, webhookId, from);

    const batch = await writeTransaction(
      this.dataSource,
      (manager) =>
        new ResendBatchesRepository(manager).create({
          workspaceId: actor.workspace.id,
          webhookId,
          requestedByUserId: actor.user.id,
          apiKeyId: actor.apiKeyId ?? null,
          oauthConnectionId: actor.oauthConnectionId ?? null,
          since: from,
          limit: RESEND_BATCH_MAX,
          deliveryIds: chosen.slice(0, RESEND_BATCH_MAX),
          moreRemained: chosen.length > RESEND_BATCH_MAX,
          status: 'running',
          workflowStartedAt: null,
          completedAt: null,
        }),
      (row) => resendBatchView(row, []),
    );
    await this.startWorkflow(batch, webhook.url);
    return resendBatchView(batch, []);
  }

  /**
   * What `start` would choose now, counted by the same query: a dialog's preview (the web app's),
   * so Failed deliveries already resent, or still retrying, are not counted. Needs what reading
   * deliveries needs.
   */
  async preview(actor: Actor, webhookId: string, since: string): Promise<ResendFailedPreview> {
    assertApiRight(actor, 'apiRead');
    if (!(await new WebhooksRepository(this.dataSource.manager).find(actor.workspace.id, webhookId)))
      throw webhookNotFound();
    const chosen = await this.chosen(actor, webhookId, resendSince(since, new Date()));
    return {
      count: Math.min(chosen.length, RESEND_BATCH_MAX),
      moreRemained: chosen.length > RESEND_BATCH_MAX,
    };
  }

  /** The deliveries a batch takes, oldest first, and one more if more remain. */
  private chosen(actor: Actor, webhookId: string, from: Date): Promise<string[]> {
    return new DeliveriesRepository(this.dataSource.manager).failedForGoodSince(
      actor.workspace.id,
      webhookId,
      from,
      RESEND_BATCH_MAX + 1,
    );
  }

  /** A batch and its results so far; needs what reading deliveries needs. */
  async get(actor: Actor, webhookId: string, batchId: string): Promise<ResendBatchView> {
    assertApiRight(actor, 'apiRead');
    const batch = await this.batches().find(actor.workspace.id, batchId, webhookId);
    if (!batch) {
      // As the delivery log: a deleted webhook's batches stay readable under its id.
      const webhookKnown = await new WebhooksRepository(this.dataSource.manager).exists(
        actor.workspace.id,
        webhookId,
      );
      throw webhookKnown ? resendBatchNotFound() : webhookNotFound();
    }
    return loadResendBatchView(this.dataSource.manager, batch);
  }

  /** A batch by its id alone (MCP `get_resend_batch`), in the caller's workspace. */
  async getById(actor: Actor, batchId: string): Promise<ResendBatchView> {
    assertApiRight(actor, 'apiRead');
    const batch = await this.batches().find(actor.workspace.id, batchId);
    if (!batch) throw resendBatchNotFound();
    return loadResendBatchView(this.dataSource.manager, batch);
  }

  /** Starts the workflows of batches that could not be started (Temporal was away); the dispatch sweep calls it. */
  async sweep(startedBeforeMs = 10_000): Promise<number> {
    const unstarted = await this.batches().unstarted(new Date(Date.now() - startedBeforeMs));
    let started = 0;
    for (const batch of unstarted) {
      const webhook = await new WebhooksRepository(this.dataSource.manager).find(
        batch.workspaceId,
        batch.webhookId,
      );
      if (await this.startWorkflow(batch, webhook?.url ?? '(deleted webhook)')) started++;
    }
    return started;
  }

  private batches(): ResendBatchesRepository {
    return new ResendBatchesRepository(this.dataSource.manager);
  }

  private async startWorkflow(batch: ResendBatch, webhookUrl: string): Promise<boolean> {
    try {
      await this.starter.startResendBatch(batch, webhookUrl);
      await this.batches().markWorkflowStarted(batch.id);
      return true;
    } catch (error) {
      // The batch is committed: the dispatch sweep starts its workflow once Temporal answers.
      this.logger.warn({ err: error, batchId: batch.id }, 'could not start the resend batch workflow yet');
      return false;
    }
  }
}
