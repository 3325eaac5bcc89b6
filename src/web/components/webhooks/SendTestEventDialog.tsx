// "Send test event" from a webhook's row menu: a sample of one of its events, delivered like a real
// one (signed, with its headers and template) and logged as a test (docs/deliveries.md).
import { useState } from 'react';
import { api, type DeliveryView, type SendTestEventBody, type WebhookView } from '../../api';
import { isRetiredEvent } from '../../webhooks';
import { useSubmit } from '../../hooks/useSubmit';
import { ShowDeliveriesLink } from '../deliveries/DeliveryParts';
import { Dialog, DialogActions, ErrorMessage } from '../Dialog';

type Props = {
  webhook: WebhookView;
  onClose: () => void;
  onShowDeliveries: (webhook: WebhookView) => void;
};

export function SendTestEventDialog({ webhook, onClose, onShowDeliveries }: Props) {
  const events = webhook.events.filter((event) => !isRetiredEvent(event));
  const [event, setEvent] = useState(events[0] ?? '');
  const [sent, setSent] = useState<DeliveryView>();
  const submit = useSubmit();

  const send = () =>
    void submit.run(async () =>
      // The webhook's own (non-retired) events: the server checks them again.
      setSent(await api.sendTestEvent(webhook.id, { event: event as SendTestEventBody['event'] })),
    );

  return (
    <Dialog title="Send test event" onClose={onClose} testId="send-test-event">
      <p className="muted">
        A sample <strong>{event || 'event'}</strong> with made-up values and <code>data.test: true</code>,
        sent to <code className="url">{webhook.url}</code> like a real delivery: signed, with its headers and
        body template, retried on failure, and listed in Deliveries as a test.
      </p>
      {!webhook.enabled ? <p className="muted">This webhook is disabled: enable it first.</p> : null}
      <label>
        Event
        <select
          value={event}
          onChange={(change) => setEvent(change.target.value)}
          data-testid="test-event-name"
        >
          {events.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage message={submit.error} />
      {sent ? (
        <p className="notice" data-testid="test-event-sent" data-delivery-id={sent.id}>
          Test delivery sent.{' '}
          <ShowDeliveriesLink onClick={() => onShowDeliveries(webhook)} testId="test-event-show-deliveries" />
        </p>
      ) : null}
      <DialogActions
        onCancel={onClose}
        cancelLabel={sent ? 'Close' : 'Cancel'}
        label={sent ? 'Send another' : 'Send test event'}
        busyLabel="Sending…"
        busy={submit.busy}
        disabled={!event}
        onClick={send}
        testId="test-event-send"
      />
    </Dialog>
  );
}
