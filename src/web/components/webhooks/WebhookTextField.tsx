// A plain text field of the webhook dialog (src/shared/webhooks/webhook-fields.ts: description…),
// its label, limit and placeholder taken from the one description of the field.
import { WEBHOOK_TEXT_FIELDS, type WebhookTextFieldName } from '../../../shared/webhooks/webhook-fields';
import { textFieldTestId } from '../../webhook-draft';

export function TextField({
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
