/** The kinds of field of the record model (src/record-model/field-kinds.ts says how each is stored). */
export const FIELD_KINDS = [
  'text',
  'number',
  'date',
  'boolean',
  'select',
  'email',
  'url',
  'richText',
  'formula',
  'link',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
