// "Rotate secret" from the webhook dialog (issue 27, item 2): a new secret (generated here, or
// typed) becomes the secret at once, and the one it replaces keeps signing webhook-signature for a
// grace period, so Standard Webhooks receivers switch without losing a delivery.
import { useState, type FormEvent } from 'react';
import { api, type WebhookView } from '../../api';
import { SECRET_ROTATION_GRACE_HOURS_DEFAULT, SECRET_ROTATION_GRACE_HOURS_MAX } from '../../../shared/limits';
import { standardWebhooksSecret } from '../../../shared/webhooks/standard-webhooks';
import { useSubmit } from '../../hooks/useSubmit';
import { generateSecret } from '../../webhooks';
import { secretRotationOf, WebhookDraftError } from '../../webhook-draft';
import { CopyButton } from '../CopyButton';
import { librarySecretHint } from './StandardWebhooksField';
import { Dialog, DialogActions, ErrorMessage } from '../Dialog';

type Props = {
  webhook: WebhookView;
  onCancel: () => void;
  onRotated: (webhook: WebhookView) => void;
};

export function RotateSecretDialog({ webhook, onCancel, onRotated }: Props) {
  const [secret, setSecret] = useState(generateSecret);
  const [graceHours, setGraceHours] = useState(String(SECRET_ROTATION_GRACE_HOURS_DEFAULT));
  const { busy, error, setError, run } = useSubmit();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    let rotation;
    try {
      rotation = secretRotationOf(secret, graceHours);
    } catch (failure) {
      if (failure instanceof WebhookDraftError) return setError(failure.message);
      throw failure;
    }
    void run(async () => onRotated(await api.rotateWebhookSecret(webhook.id, rotation)));
  };

  return (
    <Dialog title="Rotate secret" onClose={onCancel} testId="rotate-secret" wide>
      <form className="form" onSubmit={submit}>
        <p className="muted">
          The new secret becomes the webhook&rsquo;s secret now; during the grace period the old one still
          signs. <code>webhook-signature</code> (Standard Webhooks) then carries both signatures, so a
          receiver verifies with either while it switches. <code>X-Webhook-Signature</code> holds one
          signature: the old secret&rsquo;s until the grace period ends, then the new one&rsquo;s. Have those
          receivers accept the new secret as well before it ends, and drop the old one after.
        </p>
        <label>
          New secret
          <span className="input-row">
            <input
              className="mono"
              value={secret}
              required
              spellCheck={false}
              autoComplete="off"
              onChange={(change) => {
                setError(undefined);
                setSecret(change.target.value);
              }}
              data-testid="rotate-secret-value"
            />
            <button
              type="button"
              className="button button-small"
              onClick={() => setSecret(generateSecret())}
              data-testid="rotate-secret-generate"
            >
              Generate
            </button>
            {secret ? <CopyButton text={secret} label="Copy" testId="rotate-secret-copy" /> : null}
          </span>
          {webhook.standardWebhooks && secret ? (
            <span className="hint">
              For the standardwebhooks libraries:{' '}
              <code className="mono break" data-testid="rotate-secret-standard">
                {standardWebhooksSecret(secret)}
              </code>{' '}
              ({librarySecretHint(secret, standardWebhooksSecret(secret))})
            </span>
          ) : null}
        </label>
        <label>
          Grace period (hours)
          <input
            type="number"
            min={0}
            max={SECRET_ROTATION_GRACE_HOURS_MAX}
            step={1}
            value={graceHours}
            onChange={(change) => {
              setError(undefined);
              setGraceHours(change.target.value);
            }}
            data-testid="rotate-secret-grace"
          />
          <span className="hint">
            0 to {SECRET_ROTATION_GRACE_HOURS_MAX}. With 0 the old secret stops signing at once.
          </span>
        </label>
        <ErrorMessage message={error} />
        <DialogActions
          onCancel={onCancel}
          label="Rotate secret"
          busyLabel="Rotating…"
          busy={busy}
          testId="rotate-secret-confirm"
        />
      </form>
    </Dialog>
  );
}
