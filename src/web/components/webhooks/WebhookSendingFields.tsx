// How the webhook dialog's webhook sends: its signing secret and schemes, custom headers and body
// template.
// Read-only for an editor of someone else's record webhook too: only its owner or an Admin
// changes how it sends.
import { useState, type ChangeEvent } from 'react';
import type { WebhookView } from '../../api';
import { BODY_TEMPLATE_MAX, WEBHOOK_SECRET_MAX } from '../../../shared/limits';
import { generateSecret, MASK, maskedHeaderLines, parseHeaderLines } from '../../webhooks';
import type { WebhookDraft } from '../../webhook-draft';
import { DateTime } from '../../format';
import { CopyButton } from '../CopyButton';
import { StandardWebhooksField } from './StandardWebhooksField';

type SendingDraft = Pick<WebhookDraft, 'secret' | 'standardWebhooks' | 'headers' | 'bodyTemplate'>;

export function SendingFields({
  webhook,
  draft,
  savedValuesShown,
  readOnly,
  onChange,
  onRotate,
}: {
  webhook: WebhookView | undefined;
  draft: WebhookDraft;
  /** The draft holds the saved secret and header values (Admin, or Edit on API & Webhooks). */
  savedValuesShown: boolean;
  readOnly: boolean;
  onChange: (patch: Partial<SendingDraft>) => void;
  /** Opens the Rotate secret dialog; absent when the secret cannot be rotated from here now. */
  onRotate?: () => void;
}) {
  // Saved values stay masked until asked for, like a password field; new ones are typed in clear.
  const [revealed, setRevealed] = useState(!savedValuesShown);
  const hasValues = draft.secret !== '' || draft.headers.trim() !== '';
  const headerNames = Object.keys(parseHeaderLines(draft.headers) ?? {});
  // The attributes all three text fields end with, spread last so the DOM keeps its attribute order.
  const edits = (
    key: Exclude<keyof SendingDraft, 'standardWebhooks'>,
    testId: string,
    placeholder: string,
  ) => ({
    spellCheck: false,
    placeholder,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      onChange({ [key]: event.target.value }),
    'data-testid': testId,
  });
  return (
    <>
      {savedValuesShown && hasValues ? (
        <div className="field-actions">
          <button
            type="button"
            className="button button-small"
            aria-pressed={revealed}
            onClick={() => setRevealed((now) => !now)}
            data-testid="webhook-reveal"
          >
            {revealed ? 'Hide values' : 'Reveal values'}
          </button>
          <span className="hint">The saved secret and header values are masked until revealed.</span>
        </div>
      ) : null}

      <label>
        Secret
        <span className="input-row">
          <input
            className="mono"
            type={revealed || !savedValuesShown ? 'text' : 'password'}
            value={draft.secret}
            readOnly={readOnly}
            maxLength={WEBHOOK_SECRET_MAX}
            autoComplete="off"
            {...edits('secret', 'webhook-secret', secretPlaceholder(webhook, draft, readOnly))}
          />
          {readOnly ? null : (
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                onChange({ secret: generateSecret() });
                setRevealed(true);
              }}
              data-testid="webhook-secret-generate"
            >
              Generate
            </button>
          )}
          {draft.secret && (revealed || !savedValuesShown) && !readOnly ? (
            <CopyButton text={draft.secret} label="Copy" testId="webhook-secret-copy" />
          ) : null}
          {onRotate ? (
            <button
              type="button"
              className="button button-small"
              onClick={onRotate}
              data-testid="webhook-secret-rotate"
            >
              Rotate…
            </button>
          ) : null}
        </span>
        {webhook?.previousSecretExpiresAt ? (
          <span className="hint" data-testid="webhook-previous-secret">
            Rotated: the previous secret still signs until{' '}
            <DateTime value={webhook.previousSecretExpiresAt} />: webhook-signature beside the new one,
            X-Webhook-Signature alone.
          </span>
        ) : null}
        {readOnly ? null : (
          <span className="hint">
            Signs every delivery: X-Webhook-Signature is the hex HMAC-SHA256 of the body, keyed with the
            secret exactly as shown. Generate makes a random <code>whsec_…</code> secret, which the
            standardwebhooks libraries take as it is; give the same value to your receiver. A secret changed
            here replaces the saved one at once; Rotate keeps the old one signing for a grace period.
            {webhook?.hasSecret ? ' It cannot be emptied here once set.' : ''}
          </span>
        )}
      </label>

      <StandardWebhooksField
        draft={draft}
        secretShown={(revealed || !savedValuesShown) && draft.secret !== MASK}
        readOnly={readOnly}
        onChange={(standardWebhooks) => onChange({ standardWebhooks })}
      />

      <label>
        Headers
        {savedValuesShown && !revealed ? (
          // Masked: the names only; revealing shows (and lets you edit) the values.
          <textarea
            className="mono"
            rows={3}
            value={maskedHeaderLines(headerNames)}
            readOnly
            placeholder="No custom headers"
            data-testid="webhook-headers"
          />
        ) : (
          <textarea
            className="mono"
            rows={3}
            value={draft.headers}
            readOnly={readOnly}
            {...edits(
              'headers',
              'webhook-headers',
              readOnly ? 'No custom headers' : 'X-Api-Token: value\nX-Tenant: acme',
            )}
          />
        )}
        {readOnly ? null : savedValuesShown && !revealed ? (
          <span className="hint">Reveal values to see or change the header values.</span>
        ) : (
          <span className="hint">
            One <code>Name: value</code> per line; a line without a colon is ignored, an empty field removes
            all headers. <HeaderCount text={draft.headers} />
          </span>
        )}
      </label>

      <label>
        Body template
        <textarea
          className="mono"
          rows={readOnly && !draft.bodyTemplate ? 1 : 4}
          value={draft.bodyTemplate}
          readOnly={readOnly}
          maxLength={BODY_TEMPLATE_MAX}
          {...edits(
            'bodyTemplate',
            'webhook-body-template',
            readOnly ? 'The standard envelope' : '{ "text": "{{event}} on {{data.record.ref.recordId}}" }',
          )}
        />
        {readOnly ? null : (
          <span className="hint">
            Optional JSON that replaces the standard envelope. Placeholders such as <code>{'{{event}}'}</code>
            , <code>{'{{id}}'}</code> or <code>{'{{data.record.ref.recordId}}'}</code> must sit inside JSON
            strings.
            {webhook?.bodyTemplate !== null && webhook ? ' It cannot be emptied here once set.' : ''}
          </span>
        )}
      </label>
    </>
  );
}

/** A new webhook with Standard Webhooks on is given a secret when saved without one. */
function secretPlaceholder(webhook: WebhookView | undefined, draft: WebhookDraft, readOnly: boolean) {
  if (readOnly) return 'No secret';
  return !webhook && draft.standardWebhooks
    ? 'Left empty: generated on save'
    : 'Optional: signs every delivery';
}

function HeaderCount({ text }: { text: string }) {
  const headers = parseHeaderLines(text);
  const count = headers ? Object.keys(headers).length : 0;
  return (
    <span data-testid="webhook-header-count">
      {count === 0 ? 'No headers.' : count === 1 ? '1 header.' : `${count} headers.`}
    </span>
  );
}
