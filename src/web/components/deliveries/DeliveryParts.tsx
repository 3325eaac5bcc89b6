// Pieces of the delivery log shared by the Deliveries page and Event Details.
import type { DeliveryView } from '../../api';
import { DateTime } from '../../format';
import { STATE_LABELS, webhookLabel } from '../../deliveries';

/**
 * The delivery's state: Pending, Sending, Delivered, Failed (for good), or "Retrying · next at
 * 14:03:27" in a colour of its own while a Failed delivery's next attempt is scheduled (issue 27,
 * item 1): it is Failed by the spec's status, but not over.
 */
export function DeliveryStatusBadge({
  delivery,
}: {
  delivery: Pick<DeliveryView, 'state' | 'nextAttemptAt'>;
}) {
  if (delivery.state === 'retrying' && delivery.nextAttemptAt) {
    return (
      <span
        className="status status-retrying"
        data-testid="delivery-status"
        data-state="retrying"
        title="Its last attempt failed; the retry schedule runs the next one then."
      >
        {STATE_LABELS.retrying} · next at{' '}
        <span data-testid="delivery-next-attempt">
          <DateTime value={delivery.nextAttemptAt} soon />
        </span>
      </span>
    );
  }
  return (
    <span
      className={`status status-${delivery.state}`}
      data-testid="delivery-status"
      data-state={delivery.state}
    >
      {STATE_LABELS[delivery.state]}
    </span>
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
