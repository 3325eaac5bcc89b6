import type { DataSource } from 'typeorm';
import { authorizationError, conflictError } from '../../shared/app-error';
import { retryNowRefusal } from '../../shared/deliveries/delivery-state';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import { WebhooksRepository } from '../../webhooks/webhooks.repository';
import { webhookNotFound } from '../../webhooks/webhooks.service';
import { DeliveriesRepository } from '../store';
import { deliveryNotFound, mayActOnDelivery, type DeliveriesService } from './deliveries.service';
import type { DeliveryView } from './delivery-view';
import type { RetryNowSender } from '../engine/delivery-starter';

const notRetrying = (message: string) => conflictError(message, 'deliveryNotRetrying');

/**
 * Retry now (issue 27, item 1): a Failed delivery whose next attempt is scheduled has that attempt
 * run now, in its own workflow, as the next of its ten; the delivery stays one record. Resend would
 * start a second chain of the same event beside the one still running. Needs what a resend needs
 * (Create on API & Webhooks; a record event only as the webhook's record owner or an Admin), and
 * every check is made before the workflow is asked, so a refused call changes nothing.
 *
 * One call brings one scheduled attempt forward (issue 33, item 3): it names the attempt the row
 * shows scheduled when the call reads it, and the workflow accepts only while it waits for that
 * very attempt. Two calls a moment apart both read attempt n; once the first has run n and n failed
 * again, the workflow waits for n + 1, and the second is refused instead of ending that wait too.
 */
export class RetryNowService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: DeliveriesService,
    private readonly workflows: RetryNowSender,
  ) {}

  async retryNow(actor: Actor, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    assertApiRight(actor, 'apiCreate');
    const delivery = await this.deliveries.deliveryToActOn(actor, webhookId, deliveryId);
    const webhook = await new WebhooksRepository(this.dataSource.manager).find(actor.workspace.id, webhookId);
    if (!webhook) throw webhookNotFound();
    if (!mayActOnDelivery(actor, delivery, webhook)) {
      throw authorizationError(
        'Only the webhook’s record owner or an administrator can resend or retry a record event.',
        'deliveryResendNotOwner',
      );
    }
    const refusal = retryNowRefusal(delivery);
    if (refusal) throw notRetrying(refusal);
    // A retrying row's `attempts` is the attempt that failed last: the scheduled one follows it.
    const scheduled = delivery.attempts + 1;
    const accepted = await this.workflows.retryNow(delivery.id, scheduled);
    // The row said retrying, but the workflow had just started that attempt (or ran it, or ended).
    if (!accepted) {
      throw notRetrying(
        `The delivery is no longer waiting for attempt ${scheduled}, the one scheduled when this call read it: that attempt is under way or already ran, or none follows.`,
      );
    }
    // The record says when the next attempt runs: now, until that attempt opens and records itself.
    const now = await new DeliveriesRepository(this.dataSource.manager).nextAttemptNow(
      delivery.id,
      accepted.attempt,
    );
    return this.deliveries.viewOf(actor, now);
  }

  /** Retry now by delivery id alone (MCP `retry_delivery_now`). */
  async retryNowById(actor: Actor, deliveryId: string): Promise<DeliveryView> {
    assertApiRight(actor, 'apiCreate');
    const webhookId = await new DeliveriesRepository(this.dataSource.manager).webhookIdOf(
      actor.workspace.id,
      deliveryId,
    );
    if (!webhookId) throw deliveryNotFound();
    return this.retryNow(actor, webhookId, deliveryId);
  }
}
