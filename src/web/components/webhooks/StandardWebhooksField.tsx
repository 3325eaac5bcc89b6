// The webhook dialog's Standard Webhooks switch (issue 27, item 2; on by default since issue 37,
// item 4) and, once the secret is shown, the value a receiver gives the standardwebhooks libraries.
import { standardWebhooksSecret } from '../../../shared/webhooks/standard-webhooks';
import type { WebhookDraft } from '../../webhook-draft';
import { CopyButton } from '../CopyButton';
import { CheckboxField } from './WebhookMainFields';

/**
 * The scheme's switch and the library's secret: a generated `whsec_…` secret as it is, another as
 * `whsec_` + base64 of its bytes.
 */
export function StandardWebhooksField({
  draft,
  secretShown,
  readOnly,
  onChange,
}: {
  draft: WebhookDraft;
  secretShown: boolean;
  readOnly: boolean;
  onChange: (on: boolean) => void;
}) {
  const librarySecret =
    draft.standardWebhooks && secretShown && draft.secret ? standardWebhooksSecret(draft.secret) : '';
  return (
    <CheckboxField
      label="Standard Webhooks headers"
      checked={draft.standardWebhooks}
      disabled={readOnly}
      onChange={onChange}
      testId="webhook-standard-webhooks"
    >
      <span className="hint">
        Every delivery also carries <code>webhook-id</code>, <code>webhook-timestamp</code> and, with a
        secret, <code>webhook-signature</code>, so receivers can verify it with the{' '}
        <code>standardwebhooks</code> libraries, which refuse a delivery replayed more than 5 minutes later.
      </span>
      {librarySecret ? (
        <span className="input-row">
          <code className="mono break" data-testid="webhook-standard-secret">
            {librarySecret}
          </code>
          <CopyButton text={librarySecret} label="Copy" testId="webhook-standard-secret-copy" />
          <span className="hint">{librarySecretHint(draft.secret, librarySecret)}</span>
        </span>
      ) : null}
    </CheckboxField>
  );
}

/** Says whether the libraries take the secret as it is, or in the form shown. */
export const librarySecretHint = (secret: string, librarySecret: string) =>
  librarySecret === secret
    ? 'The libraries take this secret as it is: pass it to new Webhook(…).'
    : 'The secret as the libraries take it (whsec_ + base64 of its bytes): pass this to new Webhook(…).';
