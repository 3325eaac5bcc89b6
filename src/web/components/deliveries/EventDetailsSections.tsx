// The sections of Event Details (EventDetailsDialog.tsx): the delivery's facts, its attempts with
// their exchanges, and the event's data as the viewer may read it now.
import type { ReactNode } from 'react';
import type { DeliveryView, EventDetails } from '../../api';
import { DateTime } from '../../format';
import { formatDuration, hasRestrictedValues } from '../../deliveries/deliveries';
import { eventLabel } from '../../webhooks';
import { AttemptExchange } from './AttemptExchange';
import { BreakableUrl } from '../BreakableUrl';
import { DeliveryStatusBadge, DeliveryWebhook, ElementName } from './DeliveryParts';
import { ListTable, Loading } from '../ListParts';

const OUTCOME_LABELS: Record<EventDetails['attemptHistory'][number]['outcome'], string> = {
  sending: 'Sending now',
  unknown: 'Unknown (interrupted)',
  delivered: 'Delivered',
  retry: 'Will retry',
  failed: 'Failed',
};

/** The delivery's fields; `underWay` adds when its next attempt runs. */
export function DeliveryFacts({
  delivery,
  underWay,
  typeName,
}: {
  delivery: DeliveryView;
  underWay: boolean;
  typeName: (typeId: string) => string | undefined;
}) {
  return (
    <dl
      className="facts record-facts delivery-facts"
      data-testid="delivery-facts"
      data-delivery-id={delivery.id}
    >
      <Fact label="Status">
        <DeliveryStatusBadge delivery={delivery} />
        {underWay && delivery.nextAttemptAt ? (
          <span className="muted">
            {' '}
            next attempt <DateTime value={delivery.nextAttemptAt} seconds />
          </span>
        ) : null}
      </Fact>
      <Fact label="Status code" testId="delivery-status-code">
        {delivery.statusCode ?? '—'}
      </Fact>
      <Fact label="Event" testId="delivery-event">
        <code>{eventLabel(delivery.event, delivery.legacy)}</code>
      </Fact>
      <Fact label="Element" testId="delivery-element">
        <ElementName delivery={delivery} typeName={typeName} />
      </Fact>
      <Fact label="Webhook">
        <DeliveryWebhook webhook={delivery.webhook} />
      </Fact>
      <Fact label="URL" testId="delivery-url">
        <span className="break">
          <BreakableUrl url={delivery.url} />
        </span>
      </Fact>
      <Fact label="Message" testId="delivery-message">
        {delivery.responseMessage ?? <span className="value-missing">—</span>}
      </Fact>
      <Fact label="Attempts" testId="delivery-attempts">
        {delivery.attempts}
      </Fact>
      <Fact label="Trigger" testId="delivery-trigger">
        {delivery.trigger === 'resend' ? (
          <>
            Resend of <code>{delivery.resendOf}</code>
          </>
        ) : delivery.trigger === 'test' ? (
          'Test event (sample data, sent by hand)'
        ) : (
          'Event'
        )}
      </Fact>
      <Fact label="Event id" testId="delivery-event-id">
        <code>{delivery.eventId}</code>
      </Fact>
      <Fact label="Delivery id" testId="delivery-id">
        <code>{delivery.id}</code>
      </Fact>
      <Fact label="Created at">
        <DateTime value={delivery.createdAt} />
      </Fact>
      <Fact label="Updated at">
        <DateTime value={delivery.updatedAt} />
      </Fact>
    </dl>
  );
}

/** Each attempt (and each request of an attempt) with its request and response; loading until `details`. */
export function AttemptHistory({
  details,
  underWay,
}: {
  details: EventDetails | undefined;
  underWay: boolean;
}) {
  return (
    <>
      <h3 className="section-title">Attempts</h3>
      {!details ? (
        <Loading />
      ) : details.attemptHistory.length === 0 ? (
        <p className="muted" data-testid="delivery-no-attempts">
          {underWay ? 'No attempt yet: the first one is on its way.' : 'No attempt was made.'}
        </p>
      ) : (
        <ListTable
          className="table table-compact"
          testId="delivery-attempt-history"
          columns={['Attempt', 'Time', 'Status code', 'Message', 'Duration', 'Outcome']}
        >
          {details.attemptHistory.map((attempt) => [
            <tr
              key={`${attempt.attempt}.${attempt.send}`}
              data-testid="delivery-attempt"
              data-outcome={attempt.outcome}
            >
              <td>
                <span className="card-only">Attempt </span>
                {attempt.attempt}
                {attempt.send > 1 ? <span className="muted"> (request {attempt.send})</span> : null}
              </td>
              <td>
                <DateTime value={attempt.startedAt} seconds />
              </td>
              <td data-testid="delivery-attempt-status-code">{attempt.statusCode ?? '—'}</td>
              <td className="break">{attempt.responseMessage || <span className="value-missing">—</span>}</td>
              <td>{attempt.durationMs === null ? '—' : formatDuration(attempt.durationMs)}</td>
              <td>{OUTCOME_LABELS[attempt.outcome] ?? attempt.outcome}</td>
            </tr>,
            <tr key={`${attempt.attempt}.${attempt.send}.exchange`} className="attempt-exchange-row">
              <td colSpan={6}>
                <AttemptExchange attempt={attempt} />
              </td>
            </tr>,
          ])}
        </ListTable>
      )}
    </>
  );
}

/** The event's `data` as the viewer's role reads it now; loading until `details`. */
export function EventData({ details }: { details: EventDetails | undefined }) {
  return (
    <>
      <h3 className="section-title">Event data</h3>
      {!details ? (
        <Loading />
      ) : Object.keys(details.payload).length === 0 ? (
        <p className="notice notice-warning" data-testid="delivery-payload-unreadable">
          You cannot read this record. Your role has no access to its type, or its event data is no longer
          stored, so no payload is shown.
        </p>
      ) : (
        <>
          <p className="hint">
            {details.event.startsWith('messaging.') ? (
              // Messaging events embed no CRM records: their data is shown as it was sent.
              <>
                The event&rsquo;s <code>data</code> as sent: the provider&rsquo;s ids, its connected account
                and provider.
              </>
            ) : (
              <>
                The event&rsquo;s <code>data</code>, read again now with your role&rsquo;s access.
              </>
            )}
            {hasRestrictedValues(details.payload) ? (
              <span data-testid="delivery-payload-restricted">
                {' '}
                Values shown as <code>{'{ "state": "restricted" }'}</code> belong to fields your role cannot
                read.
              </span>
            ) : null}
          </p>
          <pre className="code-block" data-testid="delivery-payload">
            {JSON.stringify(details.payload, null, 2)}
          </pre>
        </>
      )}
    </>
  );
}

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}
