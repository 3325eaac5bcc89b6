// The Dashboard's webhook health: how many of the workspace's webhooks are failing, degraded,
// healthy or have sent nothing yet, and the ones in trouble by name with why and a link to their
// deliveries (issue 27, item 6). Read with the Webhooks list's query: their health comes from the
// counts kept per hour, never from a scan of the delivery log.
import { api, type WebhookPage } from '../../api';
import { countVerdicts, judgeHealth, type Judged } from '../../../shared/webhooks/health-verdict';
import { troubleDeliveries } from '../../delivery-links';
import { Link } from '../../router';
import { useLoaded } from '../../hooks/useLoaded';
import { BreakableUrl } from '../BreakableUrl';
import { ErrorMessage } from '../Dialog';
import { Loading } from '../ListParts';
import { HealthVerdictBadge } from './HealthVerdict';

/** The list's largest page: a workspace with more webhooks is judged on its newest ones (said so). */
const WEBHOOKS_JUDGED = 200;

const readWebhooks = () => api.webhooks({ limit: WEBHOOKS_JUDGED });

type Webhook = WebhookPage['data'][number];

export function WorkspaceHealthPanel() {
  const { value: page, error } = useLoaded(readWebhooks);
  const judged = (page?.data ?? []).map((webhook) => ({ webhook, ...judgeHealth(webhook) }));
  const inTrouble = judged
    .filter(({ verdict }) => verdict === 'failing' || verdict === 'degraded')
    .sort((a, b) => (a.verdict === b.verdict ? 0 : a.verdict === 'failing' ? -1 : 1));
  const now = new Date();

  return (
    <section className="panel workspace-health" data-testid="dashboard-health">
      <h2>Webhook health</h2>
      <ErrorMessage message={error} />
      {!page ? (
        <Loading failed={Boolean(error)} />
      ) : judged.length === 0 ? (
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
            {countVerdicts(judged.map(({ verdict }) => verdict)).map(({ verdict, count }) => (
              <li key={verdict} data-testid="dashboard-health-count" data-verdict={verdict}>
                <HealthVerdictBadge verdict={verdict} count={count} />
              </li>
            ))}
          </ul>
          {page.nextCursor ? <p className="hint">Of the {WEBHOOKS_JUDGED} newest webhooks.</p> : null}
          {inTrouble.length === 0 ? (
            <p data-testid="dashboard-health-fine">No webhook is failing or degraded.</p>
          ) : (
            <ul className="trouble-list" data-testid="dashboard-trouble">
              {inTrouble.map((each) => (
                <TroubleItem key={each.webhook.id} {...each} now={now} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function TroubleItem({ webhook, verdict, why, now }: Judged & { webhook: Webhook; now: Date }) {
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
