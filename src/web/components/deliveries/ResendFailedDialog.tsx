// "Resend failed since …" from a webhook's row menu: resends its Failed deliveries since a time, as a
// background batch, and follows it: how many, each one resent or refused with the reason, and
// whether more remained beyond the batch's limit (docs/deliveries.md). The time is the browser's,
// and says so; before it starts, the server counts what a batch started now would take.
import { useEffect, useState } from 'react';
import {
  api,
  type ResendBatchResultView,
  type ResendBatchView,
  type ResendFailedPreview,
  type WebhookView,
} from '../../api';
import { defaultResendSince } from '../../../shared/deliveries/resend-batch.rules';
import { RESEND_BATCH_MAX } from '../../../shared/limits';
import { useDebounced } from '../../hooks/useDebounced';
import { useSubmit } from '../../hooks/useSubmit';
import { DateTime } from '../../format';
import { ShowDeliveriesLink } from './DeliveryParts';
import { Dialog, DialogActions, ErrorMessage } from '../Dialog';

type Props = {
  webhook: WebhookView;
  onClose: () => void;
  onShowDeliveries: (webhook: WebhookView) => void;
};

const POLL_MS = 1_000;

/** A `datetime-local` value (the browser's time zone), minutes only. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The browser's time zone by name, with its offset at `instant`: "Europe/Berlin (UTC+01:00)". */
export function timeZoneLabel(instant: Date): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset = -instant.getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${zone} (UTC${offset < 0 ? '-' : '+'}${hours}:${minutes})`;
}

export function ResendFailedDialog({ webhook, onClose, onShowDeliveries }: Props) {
  const [since, setSince] = useState(() => localInputValue(defaultResendSince(new Date())));
  const [batch, setBatch] = useState<ResendBatchView>();
  const submit = useSubmit();
  const { setError } = submit;
  const running = batch?.status === 'running';
  const instant = since ? new Date(since) : undefined;
  const valid = instant !== undefined && !Number.isNaN(instant.getTime());

  // Follows the batch while it runs; stops when it completes or the dialog closes.
  useEffect(() => {
    if (!batch || batch.status !== 'running') return;
    const timer = setTimeout(() => {
      api.resendBatch(webhook.id, batch.id).then(setBatch, (error: unknown) => {
        setError(error instanceof Error ? error.message : String(error));
      });
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [batch, webhook.id, setError]);

  const start = () =>
    void submit.run(async () => {
      // The input is local time; the server gets the instant (it refuses one in the future).
      const instant = new Date(since);
      setBatch(await api.resendFailed(webhook.id, { since: instant.toISOString() }));
    });

  return (
    <Dialog title="Resend failed deliveries" onClose={onClose} testId="resend-failed">
      <p className="muted">
        Resends the Failed deliveries of <code className="url">{webhook.url}</code> created since the time
        below, oldest first, each as a new delivery to the webhook as it is now. Deliveries still being
        retried, and ones already resent, are left as they are.
      </p>
      {!webhook.enabled ? <p className="muted">This webhook is disabled: enable it first.</p> : null}
      <label>
        Since
        <input
          type="datetime-local"
          value={since}
          max={localInputValue(new Date())}
          onChange={(change) => setSince(change.target.value)}
          disabled={Boolean(batch)}
          required
          data-testid="resend-failed-since"
        />
      </label>
      {valid ? (
        <p className="hint" data-testid="resend-failed-zone">
          Your browser&rsquo;s time zone: {timeZoneLabel(instant)}
        </p>
      ) : null}
      {!batch && valid ? <ResendPreview webhookId={webhook.id} since={instant.toISOString()} /> : null}
      <ErrorMessage message={submit.error} />
      {batch ? <BatchProgress batch={batch} /> : null}
      {batch && !running ? (
        <p>
          <ShowDeliveriesLink
            onClick={() => onShowDeliveries(webhook)}
            testId="resend-failed-show-deliveries"
          />
        </p>
      ) : null}
      <DialogActions
        onCancel={onClose}
        cancelLabel={batch ? 'Close' : 'Cancel'}
        label={batch ? (running ? 'Resending…' : 'Done') : 'Resend failed'}
        busyLabel="Starting…"
        busy={submit.busy}
        disabled={!since || running || !webhook.enabled}
        onClick={batch ? onClose : start}
        testId="resend-failed-start"
      />
    </Dialog>
  );
}

/**
 * "12 Failed deliveries since then, not resent yet, will be resent.": what a batch started now would
 * take, counted by the server with the batch's own query once the time stops changing.
 */
function ResendPreview({ webhookId, since }: { webhookId: string; since: string }) {
  const settled = useDebounced(since, 400);
  const [counted, setCounted] = useState<{ since: string; preview: ResendFailedPreview }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    setError(undefined);
    api.resendFailedPreview(webhookId, settled).then(
      (preview) => current && setCounted({ since: settled, preview }),
      (failure: unknown) => current && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      current = false;
    };
  }, [webhookId, settled]);
  if (error) return <ErrorMessage message={`Could not count them: ${error}`} />;
  const preview = counted?.since === since ? counted.preview : undefined;
  return (
    <p
      className="notice"
      data-testid="resend-failed-preview"
      data-count={preview?.count}
      data-more={preview?.moreRemained}
      aria-live="polite"
    >
      {preview ? previewText(preview) : 'Counting Failed deliveries since then…'}
    </p>
  );
}

function previewText({ count, moreRemained }: ResendFailedPreview): string {
  if (count === 0)
    return 'No Failed deliveries of this webhook since then that are not resent yet: nothing to resend.';
  if (moreRemained)
    return `More than ${RESEND_BATCH_MAX} Failed deliveries since then are not resent yet: this batch resends the oldest ${RESEND_BATCH_MAX}; start another for the rest.`;
  const noun = count === 1 ? 'delivery' : 'deliveries';
  return `${count} Failed ${noun} since then, not resent yet, will be resent.`;
}

function BatchProgress({ batch }: { batch: ResendBatchView }) {
  const handled = batch.resent + batch.refused;
  return (
    <div data-testid="resend-failed-progress" data-status={batch.status}>
      <p className="notice" role="status">
        {batch.total === 0
          ? 'No Failed deliveries to resend since then.'
          : batch.status === 'running'
            ? `Resending… ${handled} of ${batch.total}: ${batch.resent} resent, ${batch.refused} refused.`
            : `Done: ${batch.resent} resent, ${batch.refused} refused, of ${batch.total}.`}
      </p>
      {batch.moreRemained ? (
        <p className="notice notice-warning" data-testid="resend-failed-more">
          More Failed deliveries remained than one batch resends ({batch.limit}). When this one is done, start
          another to resend the rest.
        </p>
      ) : null}
      {batch.results.length > 0 ? (
        <ul className="resend-results" data-testid="resend-failed-results">
          {batch.results.map((result) => (
            <ResultRow key={result.deliveryId} result={result} />
          ))}
        </ul>
      ) : null}
      {batch.completedAt ? (
        <p className="muted">
          Completed <DateTime value={batch.completedAt} seconds />
        </p>
      ) : null}
    </div>
  );
}

function ResultRow({ result }: { result: ResendBatchResultView }) {
  return (
    <li data-testid="resend-failed-result" data-delivery-id={result.deliveryId}>
      <code>{result.event}</code>{' '}
      {result.refusal ? (
        <>
          <span className="status status-failed">Refused</span>{' '}
          <span data-testid="resend-failed-reason">{result.refusal.message}</span>
        </>
      ) : (
        <span className="status status-delivered">Resent</span>
      )}
    </li>
  );
}
