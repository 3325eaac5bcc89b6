// The sample body of one event, shown under the webhook dialog's Events field: what a receiver
// gets (without a body template), read from the OpenAPI document the server builds (event-samples.ts).
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api';
import { describeEvent } from '../../../shared/events/event-catalog-descriptions';
import { loadEventSamples } from '../../examples/event-samples';
import { ErrorMessage, LinkButton } from '../Dialog';
import { RichText } from '../OpenApi';

export const EVENT_SAMPLE_PANEL_ID = 'webhook-event-sample';

export function EventSamplePanel({ event, onClose }: { event: string; onClose: () => void }) {
  const [sample, setSample] = useState<{ event: string; body: unknown }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    let live = true;
    setError(undefined);
    loadEventSamples()
      .then((samples) => live && setSample({ event, body: samples.get(event) }))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [event]);

  const shown = sample?.event === event ? sample : undefined;
  return (
    <section
      id={EVENT_SAMPLE_PANEL_ID}
      className="event-sample"
      data-testid="webhook-event-sample"
      data-event={event}
      aria-label={`Sample payload of ${event}`}
    >
      <div className="event-sample-header">
        <strong>
          Sample payload of <code>{event}</code>
        </strong>
        <LinkButton small onClick={onClose} testId="webhook-event-sample-close">
          Close
        </LinkButton>
      </div>
      <p className="hint">
        <RichText text={describeEvent(event)} /> The body a receiver gets without a body template; ids and
        values are examples.
      </p>
      {error ? (
        <ErrorMessage message={error} />
      ) : !shown ? (
        <p className="muted" data-testid="webhook-event-sample-loading">
          Loading…
        </p>
      ) : (
        <pre className="code-block" data-testid="webhook-event-sample-body">
          {shown.body === undefined ? 'No sample for this event.' : JSON.stringify(shown.body, null, 2)}
        </pre>
      )}
    </section>
  );
}
