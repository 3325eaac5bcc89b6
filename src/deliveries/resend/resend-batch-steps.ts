import type { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../db/unique-violation';
import type { ApiKeyAuthenticator } from '../../api-keys/api-key-auth';
import type { OAuthTokenAuthenticator } from '../../oauth/oauth-token-auth';
import { loadActor, type Actor } from '../../identity/actor';
import { AppError, authorizationError } from '../../shared/app-error';
import type { OutcomeCounts } from '../../shared/webhooks/webhook-health';
import { ResendBatchesRepository, type ResendBatch, type ResendRefusal } from '../store';
import type { DeliveriesService } from '../log/deliveries.service';

/** The batch row is gone (its workspace was deleted): retrying cannot bring it back. */
export class ResendBatchMissingError extends Error {
  override name = 'ResendBatchMissingError';
}

export interface BatchStep {
  batchId: string;
  deliveryId: string;
  /** The delivery's place in the batch (results are listed in this order). */
  position: number;
}

const refusalOf = (error: AppError): ResendRefusal => ({
  status: error.status,
  customCode: error.issues[0]?.customCode ?? null,
  message: error.message,
});

/**
 * The steps of a batch's workflow (its activities). Each resend goes through the very rules of a
 * single resend (DeliveriesService.resend), as the member who asked with their role as it is now.
 * A step is idempotent: its result row, keyed (batch, delivery), commits in the same transaction
 * as the resend's new delivery row, so a retried or replayed step finds it, and a step running
 * twice at once rolls one of them back, never resending twice.
 */
export class ResendBatchSteps {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesService,
    private readonly keys: Pick<ApiKeyAuthenticator, 'recheck'>,
    private readonly connections: Pick<OAuthTokenAuthenticator, 'recheck'>,
  ) {}

  async resendOne(step: BatchStep, now = new Date()): Promise<'resent' | 'refused'> {
    const batch = await this.batches().findForStep(step.batchId);
    if (!batch) throw new ResendBatchMissingError(`Resend batch ${step.batchId} is gone.`);
    // A step resends only what its batch chose.
    if (!batch.deliveryIds.includes(step.deliveryId)) {
      throw new ResendBatchMissingError(`Delivery ${step.deliveryId} is not in batch ${step.batchId}.`);
    }
    const earlier = await this.result(step);
    if (earlier) return earlier;
    try {
      const actor = await this.requester(batch, now);
      await this.deliveries.resend(actor, batch.webhookId, step.deliveryId, async (manager, resent) => {
        await new ResendBatchesRepository(manager).insertResent(step, resent.id);
      });
      return 'resent';
    } catch (error) {
      // The same step ran at once elsewhere and committed first; this one's resend rolled back.
      if (isUniqueViolation(error)) return (await this.result(step))!;
      // Anything else is not a verdict on this delivery: the activity's retry runs the step again.
      if (!(error instanceof AppError) || error.kind === 'rate_limit' || error.options.retryable) throw error;
      return this.refuse(step, refusalOf(error));
    }
  }

  /** A step that could not finish after its retries (the database away, say): refused, the batch goes on. */
  async giveUp(step: BatchStep): Promise<'resent' | 'refused'> {
    return this.refuse(step, {
      status: 500,
      customCode: 'resendFailed',
      message: 'The resend could not be made. Try this delivery again later.',
    });
  }

  /** How the deliveries this batch resent stand now (the batch's result in the Web UI). */
  async resentOutcomes(batchId: string): Promise<OutcomeCounts> {
    return this.batches().resentOutcomes(batchId);
  }

  async complete(batchId: string): Promise<void> {
    await this.batches().complete(batchId);
  }

  /** Records the refusal unless the step already has a result (then that result stands). */
  private async refuse(step: BatchStep, refusal: ResendRefusal): Promise<'resent' | 'refused'> {
    await this.batches().insertRefusedUnlessDone(step, refusal);
    return (await this.result(step))!;
  }

  private async result(step: BatchStep): Promise<'resent' | 'refused' | undefined> {
    const row = await this.batches().result(step);
    if (!row) return undefined;
    return row.resentDeliveryId ? 'resent' : 'refused';
  }

  private batches(): ResendBatchesRepository {
    return new ResendBatchesRepository(this.dataSource.manager);
  }

  /**
   * Who asked, as they are now: a key or connected app refused since, or a member who left,
   * resends nothing more;
   * the role's rights are checked by the resend itself.
   */
  private async requester(batch: ResendBatch, now: Date): Promise<Actor> {
    // Started with a key: every refusal a call with that key would get now (deleted, expired,
    // owner removed or Inactive, role without Read access All).
    if (batch.apiKeyId) return this.keys.recheck(batch.apiKeyId, batch.workspaceId, now);
    // Started over OAuth: the same, for the connected app (disconnected, owner removed, …).
    if (batch.oauthConnectionId) return this.connections.recheck(batch.oauthConnectionId, batch.workspaceId);
    const actor = await loadActor(this.dataSource.manager, batch.workspaceId, batch.requestedByUserId);
    if (!actor) {
      throw authorizationError('The member who started this batch left the workspace.', 'memberRemoved');
    }
    return actor;
  }
}
