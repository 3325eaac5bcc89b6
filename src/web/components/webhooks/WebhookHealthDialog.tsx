// A webhook's health from its row menu: the word (health-verdict.ts), its endpoint's state, the last
// delivery, the outcomes of the last 24 hours and 7 days with their success rates, and the chart of
// its deliveries by outcome over time (its bars open the deliveries they count).
import { useEffect, useState } from 'react';
import { api, type WebhookView } from '../../api';
import { DateTime } from '../../format';
import { formatSuccessRate } from '../../../shared/webhooks/webhook-health';
import { DeliveryStatusBadge } from '../deliveries/DeliveryParts';
import { BreakableUrl } from '../BreakableUrl';
import { DeliveryStatsPanel } from '../deliveries/DeliveryStatsPanel';
import { Dialog, DialogActions } from '../Dialog';
import { EndpointStatePanel } from './EndpointState';
import { HealthVerdictBadge } from './HealthVerdict';
import { judgeHealth } from '../../../shared/webhooks/health-verdict';

type Props = {
  webhook: WebhookView;
  onClose: () => void;
  onShowDeliveries: (webhook: WebhookView) => void;
};

type Window = WebhookView['health']['last24h'];

export function WebhookHealthDialog({ webhook, onClose, onShowDeliveries }: Props) {
  // The list's numbers at once, then the webhook read again (its health is counted when read).
  const [health, setHealth] = useState(webhook.health);
  useEffect(() => {
    let current = true;
    api.webhook(webhook.id).then(
      (fresh) => current && setHealth(fresh.health),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [webhook.id]);
  const { lastDelivery } = health;

  return (
    <Dialog title="Webhook health" onClose={onClose} testId="webhook-health-dialog" wide>
      <p>
        <code className="url">
          <BreakableUrl url={webhook.url} />
        </code>
        {webhook.description ? <span className="muted"> — {webhook.description}</span> : null}
      </p>
      <p data-testid="health-verdict-line">
        Health: <HealthVerdictBadge verdict={judgeHealth({ enabled: webhook.enabled, health }).verdict} />
      </p>
      <EndpointStatePanel endpoint={health.endpoint} />
      <p data-testid="health-last-delivery">
        Last delivery:{' '}
        {lastDelivery ? (
          <>
            <DeliveryStatusBadge delivery={{ ...lastDelivery, nextAttemptAt: null }} />{' '}
            <DateTime value={lastDelivery.at} />
          </>
        ) : (
          'none yet'
        )}
      </p>
      <div className="health-windows">
        <HealthWindow title="Last 24 hours" counts={health.last24h} testId="health-24h" />
        <HealthWindow title="Last 7 days" counts={health.last7d} testId="health-7d" />
      </div>
      <DeliveryStatsPanel title="Deliveries of this webhook" webhookId={webhook.id} testId="webhook-stats" />
      <DialogActions
        onCancel={onClose}
        cancelLabel="Close"
        label="Show deliveries"
        onClick={() => onShowDeliveries(webhook)}
        testId="health-show-deliveries"
      />
    </Dialog>
  );
}

function HealthWindow({ title, counts, testId }: { title: string; counts: Window; testId: string }) {
  return (
    <section className="health-window" data-testid={testId}>
      <h3>{title}</h3>
      <dl className="facts">
        <dt>Success rate</dt>
        <dd data-testid={`${testId}-rate`}>{formatSuccessRate(counts.successRate)}</dd>
        <dt>Delivered</dt>
        <dd data-testid={`${testId}-delivered`}>{counts.delivered}</dd>
        <dt>Failed</dt>
        <dd data-testid={`${testId}-failed`}>{counts.failed}</dd>
        <dt>Retrying</dt>
        <dd data-testid={`${testId}-retrying`}>{counts.retrying}</dd>
        <dt>In flight</dt>
        <dd data-testid={`${testId}-in-flight`}>{counts.inFlight}</dd>
      </dl>
    </section>
  );
}
