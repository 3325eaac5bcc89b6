// A webhook's health under its status in the Webhooks list: the word (healthy, degraded, failing,
// no deliveries yet; the lines under it say why), its endpoint's state, its last delivery, the last 24 hours' success rate and how many of its deliveries are retrying (the
// numbers of the last 7 days in the tooltip).
import type { WebhookView } from '../../api';
import { DateTime } from '../../format';
import { EndpointStateLine } from './EndpointState';
import { formatSuccessRate } from '../../../shared/webhooks/webhook-health';
import { STATUS_LABELS } from '../../deliveries/deliveries';
import { judgeHealth } from '../../../shared/webhooks/health-verdict';
import { HealthVerdictBadge } from './HealthVerdict';

export function WebhookHealthSummary({ webhook }: { webhook: Pick<WebhookView, 'enabled' | 'health'> }) {
  const { lastDelivery, last24h, last7d, endpoint } = webhook.health;
  // A disabled webhook is not judged: its status already says Disabled.
  const { verdict } = judgeHealth(webhook);
  const title =
    `Last 24 h: ${last24h.delivered} delivered, ${last24h.failed} failed, ${last24h.retrying} retrying, ` +
    `${last24h.inFlight} in flight. Last 7 days: ${last7d.delivered} delivered, ${last7d.failed} failed, ` +
    `${last7d.retrying} retrying (${formatSuccessRate(last7d.successRate)}).`;
  return (
    <span className="webhook-health" title={title} data-testid="webhook-health">
      {verdict === 'disabled' ? null : (
        <span data-testid="webhook-verdict" data-verdict={verdict}>
          Health: <HealthVerdictBadge verdict={verdict} />
        </span>
      )}
      {endpoint ? <EndpointStateLine endpoint={endpoint} /> : null}
      {lastDelivery ? (
        <span
          data-testid="webhook-health-last"
          data-status={lastDelivery.status}
          data-state={lastDelivery.state}
        >
          Last: {STATUS_LABELS[lastDelivery.status]}
          {lastDelivery.state === 'retrying' ? ' · retrying' : ''} <DateTime value={lastDelivery.at} />
        </span>
      ) : (
        <span data-testid="webhook-health-last">No deliveries yet</span>
      )}
      {last24h.successRate !== null ? (
        <span data-testid="webhook-health-rate">
          24 h: {formatSuccessRate(last24h.successRate)} delivered
        </span>
      ) : null}
      {last24h.retrying > 0 ? (
        <span className="status status-retrying" data-testid="webhook-health-retrying">
          {last24h.retrying} retrying
        </span>
      ) : null}
    </span>
  );
}
