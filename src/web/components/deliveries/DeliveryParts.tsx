// Pieces of the delivery log shared by the Deliveries page and Event Details.
import type { DeliveryView } from '../../api';
import { DateTime } from '../../format';
import { DELIVERY_MAX_ATTEMPTS } from '../../../shared/limits';
import { STATUS_LABELS, webhookLabel } from '../../deliveries/deliveries';

/**
 * The delivery's status, one of the spec's four (docs/deliveries.md#the-delivery-log), and beside a Failed
 * one whose next attempt is scheduled, when that attempt runs ("Failed · retrying at 14:03:27
 * UTC", in a colour of its own): it is Failed by the spec, but not over (issue 33, item 1).
 */
export function DeliveryStatusBadge({
  delivery,
}: {
  delivery: Pick<DeliveryView, 'status' | 'state' | 'nextAttemptAt'>;
}) {
  return (
    <span className="delivery-status" data-testid="delivery-status-line">
      <span
        className={`status status-${delivery.status}`}
        data-testid="delivery-status"
        data-status={delivery.status}
        data-state={delivery.state}
      >
        {STATUS_LABELS[delivery.status]}
      </span>
      {delivery.state === 'retrying' ? <RetryingAt nextAttemptAt={delivery.nextAttemptAt} /> : null}
    </span>
  );
}

/**
 * "· retrying at 14:03:27 UTC": when a Failed delivery's next attempt runs, by its schedule or
 * Retry now; "· retrying" where that time is not known (a webhook's last delivery).
 */
export function RetryingAt({ nextAttemptAt }: { nextAttemptAt: string | null }) {
  return (
    <span
      className="retrying-at"
      data-testid="delivery-retrying"
      title="Its last attempt failed; the retry schedule runs the next one."
    >
      {' · '}retrying
      {nextAttemptAt ? (
        <>
          {' '}
          at{' '}
          <span data-testid="delivery-next-attempt">
            <DateTime value={nextAttemptAt} soon />
          </span>
        </>
      ) : null}
    </span>
  );
}

/**
 * Event Details of a Failed delivery whose next attempt is scheduled: its retry chain runs on by
 * itself, and what Retry now and Resend would each do (for whoever may do them).
 */
export function RetryingNotice({
  delivery,
  nextAttemptAt,
  canRetry,
}: {
  delivery: Pick<DeliveryView, 'status' | 'attempts'>;
  nextAttemptAt: string;
  canRetry: boolean;
}) {
  return (
    <div className="notice notice-retrying" role="note" data-testid="delivery-retrying-notice">
      <p>
        <strong>
          {STATUS_LABELS[delivery.status]}
          <RetryingAt nextAttemptAt={nextAttemptAt} />
        </strong>
      </p>
      <p>
        Its last attempt failed and its retry chain is still running: attempt {delivery.attempts + 1} of{' '}
        {DELIVERY_MAX_ATTEMPTS} runs then, in this delivery, by itself.
        {canRetry ? (
          <>
            {' '}
            <strong>Retry now</strong> runs that attempt now instead. <strong>Resend</strong> would send the
            event again as a new delivery while these retries go on, so the receiver would get it twice.
          </>
        ) : null}
      </p>
    </div>
  );
}

/**
 * What a delivery is about: a record (its type's name, its display name as the server read it
 * with your access, and its id), or a messaging entity.
 */
export function ElementName({
  delivery,
  typeName,
}: {
  delivery: Pick<DeliveryView, 'element' | 'elementName'>;
  typeName: (typeId: string) => string | undefined;
}) {
  const { element, elementName } = delivery;
  if (!element) return <span className="value-missing">—</span>;
  if (!('recordId' in element)) {
    return (
      <span className="element">
        <span className="element-type">Messaging</span>{' '}
        <code className="muted" data-testid="element-entity-id">
          {element.entityId}
        </code>
      </span>
    );
  }
  const { typeId, recordId } = element;
  return (
    <span className="element" title={`Type ${typeId}`} data-record-id={recordId}>
      <span className="element-type">{typeName(typeId) ?? 'Record'}</span>{' '}
      {elementName ? <strong data-testid="element-display">{elementName}</strong> : null}{' '}
      <code className="muted" data-testid="element-record-id">
        {recordId}
      </code>
    </span>
  );
}

/** The webhook a delivery belongs to: its description, else its short id; a deleted one says so. */
export function DeliveryWebhook({ webhook }: { webhook: DeliveryView['webhook'] }) {
  return (
    <span
      className="delivery-webhook"
      title={`Webhook ${webhook.id}`}
      data-testid="delivery-webhook"
      data-webhook-id={webhook.id}
      data-deleted={webhook.deleted}
    >
      {webhookLabel(webhook)}
      {webhook.deleted ? <span className="tag">Deleted webhook</span> : null}
    </span>
  );
}

/** The link from a dialog's outcome (a test event sent, a batch of resends) to the webhook's deliveries. */
export function ShowDeliveriesLink({ onClick, testId }: { onClick: () => void; testId: string }) {
  return (
    <button type="button" className="link-button" onClick={onClick} data-testid={testId}>
      Show deliveries
    </button>
  );
}
