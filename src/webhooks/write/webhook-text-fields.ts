import {
  TEXT_FIELD_NAMES,
  byTextField,
  type WebhookTextFieldName,
} from '../../shared/webhooks/webhook-fields';
import type { Webhook } from '../webhook.entity';

// The plain text fields of src/shared/webhooks/webhook-fields.ts as the service stores and reads
// them: one column each on the entity (a type error below until it has one), read as stored. Their
// view schema is webhook-view.ts's (the web app's types take it, and no entity).

type TextValues = { [Field in WebhookTextFieldName]: string | null };
/** Each text field is a column of the same name: "'note' does not satisfy keyof Webhook" until it is. */
type TextColumns = Pick<Webhook, WebhookTextFieldName>;

/** Their values in a view of `webhook`. */
export const textValuesOf = (webhook: TextColumns): TextValues => byTextField((field) => webhook[field]);

/** Stores the text fields `input` sends: '' and null clear one. */
export function writeTextFields(
  webhook: TextColumns,
  input: { [Field in WebhookTextFieldName]?: string | null },
): void {
  for (const field of TEXT_FIELD_NAMES) {
    const sent = input[field];
    if (sent !== undefined) webhook[field] = sent || null;
  }
}
