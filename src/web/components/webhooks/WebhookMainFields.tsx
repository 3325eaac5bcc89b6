// The webhook dialog's first fields: URL, the plain text fields of
// src/shared/webhooks/webhook-fields.ts (description…), events, Enabled and the rate limit. The plain text
// fields take their label, limit and placeholder from their one description there.
import type { ReactNode, RefObject } from 'react';
import {
  TEXT_FIELD_NAMES,
  WEBHOOK_TEXT_FIELDS,
  type WebhookTextFieldName,
} from '../../../shared/webhooks/webhook-fields';
import { WEBHOOK_RATE_LIMIT_MAX, WEBHOOK_RATE_LIMIT_MIN } from '../../../shared/webhooks/send-rate';
import { textFieldTestId, type WebhookDraft } from '../../webhook-draft';
import { EventsField } from './WebhookEventsField';

export function MainFields({
  draft,
  urlInput,
  readOnly,
  fixed,
  onChange,
}: {
  draft: WebhookDraft;
  urlInput: RefObject<HTMLInputElement | null>;
  /** Nothing can be changed. */
  readOnly: boolean;
  /** Where and how it sends cannot be changed (someone else's record webhook). */
  fixed: boolean;
  onChange: (patch: Partial<WebhookDraft>) => void;
}) {
  return (
    <>
      <label>
        URL
        <input
          ref={urlInput}
          required
          value={draft.url}
          readOnly={fixed}
          maxLength={4096}
          placeholder="https://example.com/hooks/crm"
          onChange={(event) => onChange({ url: event.target.value })}
          data-testid="webhook-url"
        />
        {fixed ? null : (
          <span className="hint">
            HTTP or HTTPS. Without a scheme, https:// is added. With custom headers the URL must use https://
            (or http:// on localhost).
          </span>
        )}
      </label>
      {TEXT_FIELD_NAMES.map((field) => (
        <TextField
          key={field}
          field={field}
          value={draft[field]}
          // Open to every role with Edit, or held like the sending fields (webhook-fields.ts).
          readOnly={WEBHOOK_TEXT_FIELDS[field].ownership === 'open' ? readOnly : fixed}
          onChange={(value) => onChange({ [field]: value })}
        />
      ))}

      <EventsField draft={draft} readOnly={fixed} onChange={onChange} />

      <CheckboxField
        label="Enabled"
        checked={draft.enabled}
        disabled={fixed}
        onChange={(enabled) => onChange({ enabled })}
        testId="webhook-enabled"
      >
        <span className="hint">A disabled webhook receives nothing and keeps its settings.</span>
      </CheckboxField>

      <label>
        Rate limit (deliveries per second)
        <input
          type="number"
          inputMode="numeric"
          min={WEBHOOK_RATE_LIMIT_MIN}
          max={WEBHOOK_RATE_LIMIT_MAX}
          step={1}
          value={draft.rateLimit}
          readOnly={fixed}
          placeholder="No limit"
          onChange={(event) => onChange({ rateLimit: event.target.value })}
          data-testid="webhook-rate-limit"
        />
        {fixed ? null : (
          <span className="hint">
            {WEBHOOK_RATE_LIMIT_MIN} to {WEBHOOK_RATE_LIMIT_MAX}. Retries, Retry now, test events and resends
            wait their turn too. Empty: as fast as deliveries come.
          </span>
        )}
      </label>
    </>
  );
}

function TextField({
  field,
  value,
  readOnly,
  onChange,
}: {
  field: WebhookTextFieldName;
  value: string;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  const { label, max, placeholder } = WEBHOOK_TEXT_FIELDS[field];
  return (
    <label>
      {label}
      <input
        value={value}
        readOnly={readOnly}
        maxLength={max}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        data-testid={textFieldTestId(field)}
      />
    </label>
  );
}

/** A switch of the dialog with what follows it (its hint…). */
export function CheckboxField({
  label,
  checked,
  disabled,
  onChange,
  testId,
  children,
}: {
  label: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className="field-static">
      <label className="inline">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onChange(event.target.checked)}
          data-testid={testId}
        />
        {label}
      </label>
      {children}
    </div>
  );
}
