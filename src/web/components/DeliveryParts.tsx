// Pieces of the delivery log shared by the Deliveries page and Event Details.
import type { DeliveryView } from '../api';
import { DateTime } from '../format';
import { STATUS_LABELS } from '../webhooks';

/**
 * The spec's status (Pending, Sending, Delivered, Failed) and, while retries remain, when the next
 * attempt runs: a Failed delivery with a next attempt is not final (issue 11).
 */
export function DeliveryStatusBadge({
  delivery,
}: {
  delivery: Pick<DeliveryView, 'status' | 'nextAttemptAt'>;
}) {
  const retrying = delivery.status === 'failed' && delivery.nextAttemptAt !== null;
  return (
    <>
      <span
        className={`status status-${retrying ? 'retrying' : delivery.status}`}
        data-testid="delivery-status"
      >
        {STATUS_LABELS[delivery.status]}
      </span>
      {retrying ? (
        <span className="muted next-attempt" data-testid="delivery-next-attempt">
          {' '}
          retrying at <DateTime value={delivery.nextAttemptAt!} seconds />
        </span>
      ) : null}
    </>
  );
}

/** What a delivery is about: a record (its type's name and record id), or a messaging entity. */
export function ElementName({
  delivery,
  typeName,
  display,
}: {
  delivery: DeliveryView;
  typeName: (typeId: string) => string | undefined;
  display?: string | null;
}) {
  const { element } = delivery;
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
      {display ? <strong data-testid="element-display">{display}</strong> : null}{' '}
      <code className="muted" data-testid="element-record-id">
        {recordId}
      </code>
    </span>
  );
}
