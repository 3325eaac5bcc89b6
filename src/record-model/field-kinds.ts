/**
 * Field kinds of the record model and how their values are stored. A record's stored values are
 * one JSON object `{ [fieldId]: StoredValue }` (column `records.values`); a field with no key (or
 * null) is missing. Links are not stored there: they live in `record_links` and are given to
 * matchers as `links: { [fieldId]: targetRecordId[] }`.
 */
export { FIELD_KINDS, type FieldKind } from '../shared/records/field-kinds';
import type { FieldKind } from '../shared/records/field-kinds';

/**
 * Stored value per kind:
 * - text, email, url: string
 * - number: number (finite)
 * - date: 'YYYY-MM-DD' string
 * - boolean: boolean
 * - select: string (the option's label, one of `config.options`)
 * - richText: `{ documentJson: object }` (a rich-text editor JSON document, e.g. TipTap/ProseMirror `{ type: 'doc', content: [...] }`)
 * - formula: number, or `{ $error: string }` when it could not be computed; missing when an input is missing
 * - link: never stored in values (see record_links)
 */
export type StoredValue = string | number | boolean | { documentJson: unknown } | { $error: string };

export interface FieldConfig {
  /** select: the allowed option labels. */
  options?: string[];
  /** formula: the expression, e.g. `{<fieldId>} * {<fieldId>} / 100`. */
  expression?: string;
  /** link: the record type the link points to. */
  targetTypeId?: string;
}

/** A field as the rules see it. */
export interface FieldDef {
  id: string;
  typeId: string;
  name: string;
  kind: FieldKind;
  config: FieldConfig;
  position: number;
}

/** The value states of an event's field `before`/`after` (docs/events.md#record-events: record.fields). */
export type ValueState =
  | { state: 'value'; kind: Exclude<FieldKind, 'link'>; value: unknown }
  | { state: 'missing' }
  | { state: 'restricted' }
  | { state: 'error'; message: string };
