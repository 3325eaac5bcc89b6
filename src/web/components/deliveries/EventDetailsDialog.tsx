// Event Details of one delivery (docs/deliveries.md, "The delivery log"): the delivery's fields,
// the event payload as the viewer may read it now, each attempt (with its request and response)
// (those three in EventDetailsSections.tsx), a link to its workflow in the Temporal Web UI, and
// Resend once the delivery is Delivered or Failed. A resend is a new delivery of the same event:
// the dialog then shows that one. A retrying delivery (Failed, its next attempt scheduled) says its
// retry chain is running and offers Retry now first: that attempt now, in this delivery; Resend
// stays, second, saying it would send the event beside the retries. The dialog opens with focus on
// its title, never on an action that writes.
import { useEffect, useRef, useState } from 'react';
import { api, errorMessage, type DeliveryView, type EventDetails } from '../../api';
import { useSubmit } from '../../hooks/useSubmit';
import { DELIVERY_MAX_ATTEMPTS } from '../../../shared/limits';
import { isUnfinished, STATUS_LABELS } from '../../deliveries/deliveries';
import { RetryingNotice } from './DeliveryParts';
import { Dialog, DialogActions, ErrorMessage } from '../Dialog';
import { AttemptHistory, DeliveryFacts, EventData } from './EventDetailsSections';

/** While the delivery is Pending or Sending, Event Details are read again this often. */
const POLL_MS = 1500;

type Props = {
  delivery: DeliveryView;
  typeName: (typeId: string) => string | undefined;
  canResend: boolean;
  onClose: () => void;
  /** A delivery changed or was added (a resend): the list shows it. */
  onChanged: (delivery: DeliveryView) => void;
};

export function EventDetailsDialog({ delivery: opened, typeName, canResend, onClose, onChanged }: Props) {
  const [delivery, setDelivery] = useState<DeliveryView>(opened);
  const [details, setDetails] = useState<EventDetails>();
  const [loadError, setLoadError] = useState<string>();
  const [resentFrom, setResentFrom] = useState<DeliveryView>();
  /** The attempt Retry now brought forward, until the dialog shows another delivery. */
  const [retriedAttempt, setRetriedAttempt] = useState<number>();
  const [polls, setPolls] = useState(0);
  const { busy, error, run } = useSubmit();
  // The page's callback, a new function each render: reading it through a ref keeps the effect
  // below from reading the delivery again on every render.
  const changed = useRef(onChanged);
  useEffect(() => {
    changed.current = onChanged;
  });

  useEffect(() => {
    let live = true;
    api
      .delivery(delivery.webhookId, delivery.id)
      .then((answer) => {
        if (!live) return;
        setDetails(answer);
        setLoadError(undefined);
        const { payload: _payload, attemptHistory: _attempts, ...view } = answer;
        changed.current(view);
      })
      .catch((failure: unknown) => live && setLoadError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [delivery.webhookId, delivery.id, polls]);

  const shown: DeliveryView = details?.id === delivery.id ? details : delivery;
  // After Retry now, read again until the attempt it brought forward has its outcome.
  const awaitingRetry =
    retriedAttempt !== undefined && (shown.attempts < retriedAttempt || isUnfinished(shown.status));
  const underWay = isUnfinished(shown.status) || awaitingRetry;
  useEffect(() => {
    if (!underWay) return;
    const timer = setTimeout(() => setPolls((count) => count + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [underWay, polls]);

  const current = details?.id === delivery.id ? details : undefined;
  const finished = shown.status === 'delivered' || shown.status === 'failed';
  const retrying = shown.state === 'retrying' && !awaitingRetry;

  const resend = () =>
    void run(async () => {
      const resent = await api.resendDelivery(shown.webhookId, shown.id);
      onChanged(resent);
      setResentFrom(shown);
      setRetriedAttempt(undefined);
      setDetails(undefined);
      setDelivery(resent);
    });

  const retryNow = () =>
    void run(async () => {
      const accepted = await api.retryDeliveryNow(shown.webhookId, shown.id);
      onChanged(accepted);
      // Still retrying: its next attempt is the one that runs now; otherwise it already opened.
      setRetriedAttempt(accepted.state === 'retrying' ? accepted.attempts + 1 : accepted.attempts);
      setDetails((before) => (before ? { ...before, ...accepted } : before));
      setPolls((count) => count + 1);
    });

  const temporalLink = shown.temporalUrl ? (
    <a
      className="button"
      href={shown.temporalUrl}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="delivery-temporal-link"
    >
      Open in Temporal Web UI ↗
    </a>
  ) : null;

  const resendButton = (
    <button
      type="button"
      className="button"
      disabled={busy}
      onClick={resend}
      data-testid="delivery-resend"
      title={
        retrying ? 'A new delivery of the same event, sent beside the retries still to come.' : undefined
      }
    >
      {retrying ? 'Resend as a new delivery' : busy ? 'Resending…' : 'Resend'}
    </button>
  );

  // A retrying delivery: Retry now is the primary action, Resend the second; Close closes.
  const actions =
    canResend && retrying ? (
      <DialogActions
        extra={
          <>
            {temporalLink}
            <span className="spacer" />
            {resendButton}
          </>
        }
        onCancel={onClose}
        cancelLabel="Close"
        cancelTestId="delivery-close"
        label="Retry now"
        busyLabel="Working…"
        busy={busy}
        onClick={retryNow}
        testId="delivery-retry-now"
      />
    ) : (
      <DialogActions
        extra={
          <>
            {temporalLink}
            <span className="spacer" />
            {canResend && finished ? resendButton : null}
          </>
        }
        label="Close"
        onClick={onClose}
        testId="delivery-close"
      />
    );

  return (
    <Dialog
      title="Event Details"
      onClose={onClose}
      testId="event-details"
      wide="extra"
      actions={actions}
      initialFocus="title"
    >
      {retrying && shown.nextAttemptAt ? (
        <RetryingNotice delivery={shown} nextAttemptAt={shown.nextAttemptAt} canRetry={canResend} />
      ) : null}
      {retriedAttempt !== undefined ? (
        <p className="notice" role="status" data-testid="delivery-retried-notice">
          {awaitingRetry
            ? `Retry now: attempt ${retriedAttempt} of ${DELIVERY_MAX_ATTEMPTS} runs now, in this delivery…`
            : `Retry now: attempt ${retriedAttempt} of ${DELIVERY_MAX_ATTEMPTS} ran. The delivery is now ${STATUS_LABELS[shown.status]}${shown.state === 'retrying' ? ', its next attempt scheduled' : ''}.`}
        </p>
      ) : null}
      {resentFrom ? (
        <p className="notice" role="status" data-testid="delivery-resent-notice">
          Resent: this is a new delivery of the same event (event id <code>{shown.eventId}</code>) to the
          webhook&rsquo;s current URL. The original delivery stays in the log.
        </p>
      ) : null}
      <ErrorMessage message={loadError} />
      <DeliveryFacts delivery={shown} underWay={underWay} typeName={typeName} />
      <AttemptHistory details={current} underWay={underWay} />
      <EventData details={current} />

      {!finished ? (
        <p className="hint" data-testid="delivery-resend-later">
          Resend is offered once the delivery is Delivered or Failed.
        </p>
      ) : null}
      <ErrorMessage message={error} />
    </Dialog>
  );
}
