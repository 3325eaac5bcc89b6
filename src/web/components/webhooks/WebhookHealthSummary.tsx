// A webhook's health under its status in the Webhooks list: its endpoint's state, its last
// delivery and the last 24 hours' success rate (the numbers of the last 7 days in the tooltip).
import type { WebhookView } from '../../api';
import { DateTime } from '../../format';
import { EndpointStateLine } from './EndpointState';
import { formatSuccessRate } from '../../../shared/webhooks/webhook-health';
import { STATUS_LABELS } from '../../webhooks';

export function WebhookHealthSummary({ health }: { health: WebhookView['health'] }) {
  const { lastDelivery, last24h, last7d, endpoint } = health;
  const title =
    `Last 24 h: ${last24h.delivered} delivered, ${last24h.failed} failed, ${last24h.inFlight} in flight. ` +
    `Last 7 days: ${last7d.delivered} delivered, ${last7d.failed} failed (${formatSuccessRate(last7d.successRate)}).`;
  return (
    <span className="webhook-health" title={title} data-testid="webhook-health">
      {endpoint ? <EndpointStateLine endpoint={endpoint} /> : null}
      {lastDelivery ? (
        <span data-testid="webhook-health-last" data-status={lastDelivery.status}>
          Last: {STATUS_LABELS[lastDelivery.status]} <DateTime value={lastDelivery.at} />
        </span>
      ) : (
        <span data-testid="webhook-health-last">No deliveries yet</span>
      )}
      {last24h.successRate !== null ? (
        <span data-testid="webhook-health-rate">
          24 h: {formatSuccessRate(last24h.successRate)} delivered
        </span>
      ) : null}
    </span>
  );
}
