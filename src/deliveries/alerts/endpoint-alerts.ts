import type { DataSource } from 'typeorm';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import { endpointAlertsOf, type EndpointAlert } from '../../shared/alerts/endpoint-alerts';
import type { AttemptSignal, EndpointState } from '../../shared/deliveries/endpoint-state';
import { isOperationalEvent } from '../../shared/events/event-catalog';
import { WebhooksRepository, type Webhook } from '../../webhooks/webhooks.repository';
import type { EndpointWatcher } from '../capacity/endpoint-health';
import type { LaneKey } from '../capacity/lane-budget';
import { DeliveriesRepository, EndpointStatesRepository } from '../store';
import { disabledText, failingText, noticeMail, type NoticeText } from './alert-texts';
import { NoticesRepository } from './notices.repository';
import { aboutWebhook, endpointData, storeOperationalEvent } from './operational-events';

export interface EndpointAlertsDeps {
  dataSource: DataSource;
  logger: Logger;
  /** Absent in a process without MAIL_URL: the notices are in the app only, and the log says so. */
  mailer?: Mailer;
  publicUrl: () => string;
  /** WEBHOOK_AUTO_DISABLE_AFTER_SECONDS in ms; 0 never disables for time. */
  autoDisableAfterMs: number;
  /** An operational event was stored: dispatch it soon. */
  onStored: () => void;
  now?: () => number;
}

/**
 * What a failing endpoint sets off (docs/deliveries.md#when-an-endpoint-keeps-failing), heard from
 * the worker's endpoint health after attempts that did not deliver, never after one that did: the
 * owner's and the Admins' notices and e-mails when it turns Failing and when the service disables
 * it, the operational events, and the auto-disable itself. The stored state decides between
 * workers: one announces a Failing episode, and the period is counted from the stored `since`.
 */
export class EndpointAlerts implements EndpointWatcher {
  private readonly mailing = new Set<Promise<void>>();

  constructor(private readonly deps: EndpointAlertsDeps) {}

  async notDelivered(
    key: LaneKey,
    previous: EndpointState,
    next: EndpointState,
    signal: AttemptSignal,
  ): Promise<{ stale: boolean }> {
    const now = this.deps.now?.() ?? Date.now();
    let stale = false;
    for (const alert of endpointAlertsOf(previous, next, signal, now, this.deps.autoDisableAfterMs)) {
      if (alert.kind === 'failing') await this.announceFailing(key, next);
      else if (!(await this.disable(key, next, alert, now))) stale = true;
    }
    return { stale };
  }

  /**
   * A delivery that was sent ended Failed with no automatic attempt left: `webhook.delivery.exhausted`,
   * except for deliveries of operational events and test events (no news of news).
   */
  async failedForGood(key: LaneKey & { deliveryId: string }): Promise<void> {
    const manager = this.deps.dataSource.manager;
    const delivery = await new DeliveriesRepository(manager).find(key.workspaceId, key.deliveryId);
    if (!delivery || delivery.trigger === 'test' || isOperationalEvent(delivery.event)) return;
    const webhook = await new WebhooksRepository(manager).find(key.workspaceId, key.webhookId);
    // A `listen` session alerts no one: its person sees every answer in the terminal (docs/listen.md).
    if (webhook?.listenerUntil) return;
    const stored = await storeOperationalEvent(
      manager,
      key.workspaceId,
      'webhook.delivery.exhausted',
      key.webhookId,
      {
        webhook: aboutWebhook(webhook ?? { id: key.webhookId, url: delivery.url, description: null }),
        delivery: {
          id: delivery.id,
          event: delivery.event,
          eventId: delivery.eventId,
          trigger: delivery.trigger,
          attempts: delivery.attempts,
          statusCode: delivery.statusCode,
          responseMessage: delivery.responseMessage,
        },
      },
    );
    if (stored) this.deps.onStored();
  }

  /** Resolves once the e-mails under way are handed over or failed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.mailing.size) await Promise.all(this.mailing);
  }

  private async announceFailing(key: LaneKey, state: EndpointState): Promise<void> {
    const manager = this.deps.dataSource.manager;
    if (!(await new EndpointStatesRepository(manager).announceFailing(key.webhookId))) return;
    const webhook = await new WebhooksRepository(manager).find(key.workspaceId, key.webhookId);
    if (!webhook?.enabled || webhook.listenerUntil) return;
    await this.notify(webhook, failingText(webhook, state.reason, this.deps.autoDisableAfterMs));
    const data = { webhook: aboutWebhook(webhook), endpoint: endpointData(state) };
    if (await storeOperationalEvent(manager, key.workspaceId, 'webhook.endpoint.failing', webhook.id, data))
      this.deps.onStored();
  }

  /** Disables the webhook; false when this worker's view was stale (not Failing that long, or already disabled). */
  private async disable(
    key: LaneKey,
    state: EndpointState,
    alert: Extract<EndpointAlert, { kind: 'disable' }>,
    now: number,
  ): Promise<boolean> {
    const manager = this.deps.dataSource.manager;
    if (!alert.gone) {
      const cutoff = new Date(now - this.deps.autoDisableAfterMs);
      if (!(await new EndpointStatesRepository(manager).failingSince(key.webhookId, cutoff))) return false;
    }
    const webhook = await new WebhooksRepository(manager).disableByService(
      key.workspaceId,
      key.webhookId,
      alert.reason,
    );
    if (!webhook) return false;
    this.deps.logger.info({ webhookId: webhook.id, reason: alert.reason }, 'the service disabled a webhook');
    await this.notify(webhook, disabledText(webhook, alert.reason));
    const data = {
      webhook: aboutWebhook(webhook),
      endpoint: endpointData(state),
      disabled: { reason: alert.reason, at: webhook.disabledAt!.toISOString(), gone: alert.gone },
    };
    if (await storeOperationalEvent(manager, key.workspaceId, 'webhook.endpoint.disabled', webhook.id, data))
      this.deps.onStored();
    return true;
  }

  /** A notice to each recipient, and its e-mail (sent after, not awaited by the attempt). */
  private async notify(webhook: Webhook, text: NoticeText): Promise<void> {
    const notices = new NoticesRepository(this.deps.dataSource.manager);
    const recipients = await notices.recipients(webhook.workspaceId, webhook.recordOwnerUserId);
    const ids = await notices.insert(
      { workspaceId: webhook.workspaceId, webhookId: webhook.id, ...text },
      recipients,
    );
    const { mailer, logger } = this.deps;
    if (!mailer) {
      if (ids.length)
        logger.warn({ kind: text.kind }, 'no mailer: a webhook notice was not mailed (docs/mail.md)');
      return;
    }
    const page = `${this.deps.publicUrl().replace(/\/+$/, '')}/webhooks`;
    recipients.forEach((recipient, index) => {
      const sending = mailer
        .send(noticeMail(recipient, text, page))
        .then(() => notices.markMailed(ids[index]!))
        .catch((error: unknown) =>
          logger.warn({ err: error, kind: text.kind }, 'a webhook notice was not mailed'),
        )
        .finally(() => this.mailing.delete(sending));
      this.mailing.add(sending);
    });
  }
}
