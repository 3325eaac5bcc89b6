// A webhook the service disabled (docs/deliveries.md#when-an-endpoint-keeps-failing): why and since
// when, and Re-enable in one click for whoever may switch it on (Edit, and on someone else's record
// webhook an Admin). In the Webhooks list's status cell and in the webhook's dialog.
import { api, type WebhookView } from '../../api';
import { DateTime } from '../../format';
import { useSubmit } from '../../hooks/useSubmit';
import { ErrorMessage } from '../Dialog';

type Props = {
  webhook: WebhookView | undefined;
  /** Whether the reader may switch it on; without, the reason is shown alone. */
  canEnable: boolean;
  onEnabled: (webhook: WebhookView, created: false) => void;
  /** The list's cell shows the reason as a hint; the dialog as a notice. */
  compact?: boolean;
};

export function DisabledByService({ webhook, canEnable, onEnabled, compact }: Props) {
  const { busy, error, run } = useSubmit();
  if (!webhook || webhook.enabled || !webhook.disabledReason || !webhook.disabledAt) return null;
  const reEnable = () =>
    void run(async () => onEnabled(await api.updateWebhook(webhook.id, { enabled: true }), false));
  return (
    <div
      className={compact ? 'disabled-by-service hint' : 'notice notice-warning disabled-by-service'}
      data-testid="webhook-disabled-by-service"
    >
      <span title={compact ? webhook.disabledReason : undefined}>
        Disabled by the service since <DateTime value={webhook.disabledAt} testId="webhook-disabled-at" />
        {compact ? '.' : `: ${webhook.disabledReason}`}
      </span>{' '}
      {canEnable ? (
        <button
          type="button"
          className="button button-small"
          disabled={busy}
          onClick={(event) => {
            // In a list row: the click re-enables, it does not open the webhook.
            event.stopPropagation();
            reEnable();
          }}
          data-testid="webhook-re-enable"
        >
          Re-enable
        </button>
      ) : null}
      <ErrorMessage message={error} />
    </div>
  );
}
