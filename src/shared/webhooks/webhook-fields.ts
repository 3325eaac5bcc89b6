import { WEBHOOK_DESCRIPTION_MAX } from '../limits';

/** `sending`: changes where or how the webhook sends; `open`: any role with Edit may change it. */
export type FieldOwnership = 'sending' | 'open';

/**
 * A plain optional text field of a webhook: stored as sent ('' and null clear it), shown as it is,
 * held to its length. Described here once, every layer takes it from this list: the request
 * schema (its customCode `webhook<Name>TooLong`), the MCP input's description, the view, the
 * service's write, the dialog's input and its check, the round-trip test's samples.
 */
export interface WebhookTextField {
  ownership: FieldOwnership;
  /** The dialog's label, and the subject of the length refusal ("Description can have at most…"). */
  label: string;
  max: number;
  /** For assistants (the MCP input) and the OpenAPI request schema. */
  about: string;
  placeholder: string;
  /** Two different values for the round-trip test (test/webhooks/webhook-fields-round-trip.test.ts). */
  samples: readonly [string, string];
}

export const WEBHOOK_TEXT_FIELDS = {
  description: {
    ownership: 'open',
    label: 'Description',
    max: WEBHOOK_DESCRIPTION_MAX,
    about: 'A note for people; null clears it.',
    placeholder: 'Optional',
    samples: ['Won deals to billing', 'Deals and contacts to the warehouse'],
  },
} as const satisfies Record<string, WebhookTextField>;
export type WebhookTextFieldName = keyof typeof WEBHOOK_TEXT_FIELDS;
export const TEXT_FIELD_NAMES = Object.keys(WEBHOOK_TEXT_FIELDS) as WebhookTextFieldName[];

/** An object with one entry per text field: its schema, its value in a view, its draft… */
export const byTextField = <Value>(value: (field: WebhookTextFieldName) => Value) =>
  Object.fromEntries(TEXT_FIELD_NAMES.map((field) => [field, value(field)])) as {
    [Field in WebhookTextFieldName]: Value;
  };

/**
 * Every field of a webhook request (`webhookFields`, src/webhooks/webhooks.schemas.ts), classified
 * once. `sending`: it changes where or how the webhook sends, so on a webhook whose record owner is
 * someone else only an administrator may change it (ownership-rule.ts); `open`: any role with Edit
 * may. webhooks.schemas.ts fails the type check until a field of its schema is named here, and
 * webhook-fields.test.ts names a field missing from here or from docs/api.md.
 */
export const WEBHOOK_FIELD_OWNERSHIP = {
  url: 'sending',
  headers: 'sending',
  secret: 'sending',
  bodyTemplate: 'sending',
  recordTrigger: 'sending',
  recordSources: 'sending',
  events: 'sending',
  operationalEvents: 'sending',
  enabled: 'sending',
  standardWebhooks: 'sending',
  rateLimit: 'sending',
  recordOwnerUserId: 'sending',
  // A precondition of the write (the model it read), not a setting.
  expectedSchemaRevision: 'open',
  ...textFieldOwnership(),
} as const;
export type WebhookFieldName = keyof typeof WEBHOOK_FIELD_OWNERSHIP;

/** A field a non-owner may not change (ownership-rule.ts). */
export type SendingField = {
  [Field in WebhookFieldName]: (typeof WEBHOOK_FIELD_OWNERSHIP)[Field] extends 'sending' ? Field : never;
}[WebhookFieldName];

function textFieldOwnership(): {
  [Field in WebhookTextFieldName]: (typeof WEBHOOK_TEXT_FIELDS)[Field]['ownership'];
} {
  return byTextField((field) => WEBHOOK_TEXT_FIELDS[field].ownership) as never;
}

/** The refusal code of a text field over its length: `webhookDescriptionTooLong`. */
export const textTooLongCode = (field: WebhookTextFieldName) =>
  `webhook${field[0]!.toUpperCase()}${field.slice(1)}TooLong`;

/** The refusal of a text field over its length, worded alike by the service and the dialog. */
export const textTooLongMessage = (field: WebhookTextFieldName) =>
  `${WEBHOOK_TEXT_FIELDS[field].label} can have at most ${WEBHOOK_TEXT_FIELDS[field].max} characters.`;

/** The fields a non-owner may not change (ownership-rule.ts), in the table's order. */
export const SENDING_FIELDS = (Object.keys(WEBHOOK_FIELD_OWNERSHIP) as WebhookFieldName[]).filter(
  (field): field is SendingField => WEBHOOK_FIELD_OWNERSHIP[field] === 'sending',
);
