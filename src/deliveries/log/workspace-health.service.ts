import type { DataSource } from 'typeorm';
import type { Actor } from '../../identity/actor';
import { assertApiRight } from '../../identity/permissions';
import { judgeHealth } from '../../shared/webhooks/health-verdict';
import { healthWindows } from '../../shared/webhooks/webhook-health';
import type { WebhooksService } from '../../webhooks/webhooks.service';
import { DeliveriesRepository, EndpointStatesRepository, webhooksWithFailures } from '../store';
import { TROUBLE_LISTED, type WorkspaceHealthView } from './workspace-health-view';

/**
 * The health of every webhook of a workspace, without reading them all or scanning the log. Only a
 * webhook the rule (health-verdict.ts) can call failing or degraded is judged, with the rule
 * itself: one with a delivery failed for good or retrying in the last 24 hours (the kept counts),
 * one whose endpoint is not healthy (endpoint_states), or one whose newest delivery did not
 * deliver. Idle ones are those with no delivery and no endpoint state; disabled and total are
 * counts of the webhooks table; healthy is the rest. Cost: rows of the counts for 24 hours, one
 * newest-delivery index probe and one endpoint_states probe per enabled webhook, then the health of
 * the candidates only (as the Webhooks list counts a page).
 */
export class WorkspaceHealthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhooksService,
  ) {}

  async summary(actor: Actor, now = new Date()): Promise<WorkspaceHealthView> {
    assertApiRight(actor, 'apiRead');
    const manager = this.dataSource.manager;
    const workspaceId = actor.workspace.id;
    const { total, disabled } = await this.webhooks.tally(actor);
    const failures = await webhooksWithFailures(manager, workspaceId, healthWindows(now).recent);
    const endpoints = new EndpointStatesRepository(manager);
    const notHealthy = await endpoints.notHealthyIn(workspaceId);
    const newest = await new DeliveriesRepository(manager).newestOfEnabledWebhooks(workspaceId);
    // No delivery and no endpoint state: the rule's idle (an endpoint state outlives purged deliveries).
    const withState = await endpoints.ofWebhooks(workspaceId, newest.withoutDelivery);
    const idle = newest.withoutDelivery.filter((id) => !withState.has(id)).length;

    const candidates = [...new Set([...failures, ...notHealthy, ...newest.lastNotDelivered])];
    const candidatesHealth = await this.webhooks.enabledHealth(actor, candidates);
    const judged = candidatesHealth.map(({ id, health }) => ({
      id,
      verdict: judgeHealth({ enabled: true, health }).verdict,
    }));
    const failing = judged.filter(({ verdict }) => verdict === 'failing').map(({ id }) => id);
    const degraded = judged.filter(({ verdict }) => verdict === 'degraded').map(({ id }) => id);
    const inTrouble = [...failing, ...degraded];
    return {
      total,
      counts: {
        failing: failing.length,
        degraded: degraded.length,
        healthy: total - disabled - idle - inTrouble.length,
        idle,
        disabled,
      },
      // Viewed with the health they were judged by: one read of it, and a verdict its view agrees with.
      inTrouble: await this.webhooks.viewsOf(
        actor,
        inTrouble.slice(0, TROUBLE_LISTED),
        new Map(candidatesHealth.map(({ id, health }) => [id, health])),
      ),
      moreInTrouble: Math.max(0, inTrouble.length - TROUBLE_LISTED),
    };
  }
}
