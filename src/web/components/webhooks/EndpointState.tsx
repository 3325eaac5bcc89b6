// An endpoint's state as its owner reads it (issue 23), in the Webhooks list and the Health dialog:
// the word in its colour (the colour is never the only signal) and, unless healthy, why and since when.
import type { WebhookView } from '../../api';
import { DateTime } from '../../format';
import { ENDPOINT_STATE_LABELS, endpointMeaning } from '../../../shared/deliveries/endpoint-state';

export type Endpoint = NonNullable<WebhookView['health']['endpoint']>;

export function EndpointStateBadge({ endpoint }: { endpoint: Endpoint }) {
  return (
    <span className={`status status-${endpoint.state}`} data-testid="endpoint-state">
      {ENDPOINT_STATE_LABELS[endpoint.state]}
    </span>
  );
}

/** One line under a webhook's status in the list: the state, and since when unless healthy. */
export function EndpointStateLine({ endpoint }: { endpoint: Endpoint }) {
  const unhealthy = endpoint.state !== 'healthy';
  return (
    <>
      <span data-testid="webhook-endpoint" data-state={endpoint.state}>
        Endpoint: <EndpointStateBadge endpoint={endpoint} />
        {unhealthy ? (
          <>
            {' '}
            since <DateTime value={endpoint.since} testId="endpoint-since" />
          </>
        ) : null}
      </span>
      {unhealthy && endpoint.reason ? (
        <span className="endpoint-reason" data-testid="webhook-endpoint-reason">
          {endpoint.reason}
        </span>
      ) : null}
    </>
  );
}

/** The Health dialog's part: the state since when, why, and what it means for the deliveries. */
export function EndpointStatePanel({ endpoint }: { endpoint: Endpoint | null }) {
  if (!endpoint) {
    return (
      <p data-testid="health-endpoint" data-state="none">
        Endpoint: no attempt seen yet.
      </p>
    );
  }
  return (
    <div className="endpoint-panel" data-testid="health-endpoint" data-state={endpoint.state}>
      <p>
        Endpoint: <EndpointStateBadge endpoint={endpoint} /> since{' '}
        <DateTime value={endpoint.since} testId="endpoint-since" />
      </p>
      {endpoint.state !== 'healthy' && endpoint.reason ? (
        <p className="endpoint-reason" data-testid="health-endpoint-reason">
          Why: {endpoint.reason}
        </p>
      ) : null}
      <p className="hint" data-testid="health-endpoint-meaning">
        {endpointMeaning(endpoint)}
      </p>
    </div>
  );
}
