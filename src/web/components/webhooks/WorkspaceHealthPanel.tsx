// The Dashboard's webhook health: how many of the workspace's webhooks are failing, degraded,
// healthy or have sent nothing yet, and the ones in trouble by name with why and a link to their
// deliveries (issue 27, item 6). Every webhook of the workspace is counted by the server
// (workspace-health.service.ts: from the counts kept per hour and the endpoints' states, never a
// scan of the delivery log); those in trouble come as the Webhooks list views them.
import { api, type WebhookView } from '../../api';
import { judgeHealth, listVerdictCounts, type Judged } from '../../../shared/webhooks/health-verdict';
import { troubleDeliveries } from '../../deliveries/delivery-links';
import { Link } from '../../router';
import { useLoaded } from '../../hooks/useLoaded';
import { BreakableUrl } from '../BreakableUrl';
import { ErrorMessage } from '../Dialog';
import { Loading } from '../ListParts';
import { HealthVerdictBadge } from './HealthVerdict';

const readHealth = () => api.workspaceHealth();

export function WorkspaceHealthPanel() {
  const { value: summary, error } = useLoaded(readHealth);
  // Failing first, then degraded, as the server orders them; the word and why by the same rule.
  const inTrouble = (summary?.inTrouble ?? []).map((webhook) => ({ webhook, ...judgeHealth(webhook) }));
  const now = new Date();

  return (
    <section className="panel workspace-health" data-testid="dashboard-health">
      <h2>Webhook health</h2>
      <ErrorMessage message={error} />
      {!summary ? (
        <Loading failed={Boolean(error)} />
      ) : summary.total === 0 ? (
        <p className="muted" data-testid="dashboard-health-empty">
          No webhooks yet.
        </p>
      ) : (
        <>
          <ul
            className="verdict-counts"
            data-testid="dashboard-health-counts"
            aria-label="Webhooks by health"
          >
            {listVerdictCounts(summary.counts).map(({ verdict, count }) => (
              <li key={verdict} data-testid="dashboard-health-count" data-verdict={verdict}>
                <HealthVerdictBadge verdict={verdict} count={count} />
              </li>
            ))}
          </ul>
          {inTrouble.length === 0 ? (
            <p data-testid="dashboard-health-fine">No webhook is failing or degraded.</p>
          ) : (
            <ul className="trouble-list" data-testid="dashboard-trouble">
              {inTrouble.map((each) => (
                <TroubleItem key={each.webhook.id} {...each} now={now} />
              ))}
            </ul>
          )}
          {summary.moreInTrouble > 0 ? (
            <p className="hint" data-testid="dashboard-trouble-more">
              And {summary.moreInTrouble} more failing or degraded: see the{' '}
              <Link to="/webhooks">Webhooks list</Link>.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function TroubleItem({ webhook, verdict, why, now }: Judged & { webhook: WebhookView; now: Date }) {
  const deliveries = troubleDeliveries(webhook, now);
  return (
    <li data-testid="dashboard-trouble-webhook" data-webhook-id={webhook.id} data-verdict={verdict}>
      <HealthVerdictBadge verdict={verdict} />{' '}
      {webhook.description ? <strong>{webhook.description}</strong> : null}{' '}
      <code className="url">
        <BreakableUrl url={webhook.url} />
      </code>
      {why ? (
        <span className="trouble-why" data-testid="dashboard-trouble-why">
          {why}
        </span>
      ) : null}
      <Link to={deliveries.path} data-testid="dashboard-trouble-deliveries">
        {deliveries.label}
        <span className="visually-hidden"> deliveries of {webhook.description ?? webhook.url}</span>
      </Link>
    </li>
  );
}
