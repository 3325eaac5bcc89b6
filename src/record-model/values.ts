import { ValidationError } from '../shared/app-error';
import type { FieldDef, StoredValue, ValueState } from './field-kinds';

export const TEXT_MAX = 10_000;
const RICH_TEXT_MAX_JSON = 100_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const invalid = (field: FieldDef, message: string, customCode = 'recordValueInvalid') =>
  ValidationError.of(`${field.name}: ${message}`, customCode, ['values', field.id]);

/**
 * Checks a value written to a field and returns what is stored; null clears the field.
 * Formula and link fields are not written through values.
 */
export function toStoredValue(field: FieldDef, input: unknown): StoredValue | null {
  if (input === null) return null;
  switch (field.kind) {
    case 'text':
    case 'email':
    case 'url': {
      if (typeof input !== 'string') throw invalid(field, 'must be a string.');
      if (input.length > TEXT_MAX) throw invalid(field, `can have at most ${TEXT_MAX} characters.`);
      if (field.kind === 'email' && !EMAIL.test(input)) throw invalid(field, 'must be an email address.');
      if (field.kind === 'url' && !isHttpUrl(input)) throw invalid(field, 'must be an http or https URL.');
      return input;
    }
    case 'number':
      if (typeof input !== 'number' || !Number.isFinite(input)) throw invalid(field, 'must be a number.');
      return input;
    case 'date':
      if (typeof input !== 'string' || !DATE.test(input) || Number.isNaN(Date.parse(`${input}T00:00:00Z`))) {
        throw invalid(field, 'must be a date YYYY-MM-DD.');
      }
      if (new Date(`${input}T00:00:00Z`).toISOString().slice(0, 10) !== input)
        throw invalid(field, 'is not a real date.');
      return input;
    case 'boolean':
      if (typeof input !== 'boolean') throw invalid(field, 'must be true or false.');
      return input;
    case 'select':
      if (typeof input !== 'string' || !(field.config.options ?? []).includes(input)) {
        throw invalid(field, `must be one of: ${(field.config.options ?? []).join(', ')}.`);
      }
      return input;
    case 'richText': {
      const documentJson = (input as { documentJson?: unknown })?.documentJson;
      if (
        typeof documentJson !== 'object' ||
        documentJson === null ||
        (documentJson as { type?: unknown }).type !== 'doc'
      ) {
        throw invalid(
          field,
          'must be { documentJson } holding a rich-text document ({ "type": "doc", ... }).',
        );
      }
      if (JSON.stringify(documentJson).length > RICH_TEXT_MAX_JSON) throw invalid(field, 'is too large.');
      return { documentJson };
    }
    case 'formula':
    case 'link':
      throw invalid(field, `a ${field.kind} field cannot be written here.`, 'recordFieldReadOnly');
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The value state of a stored value (docs/events.md#record-events: a missing value is not zero, and
 * says so).
 */
export function valueState(field: FieldDef, stored: StoredValue | null | undefined): ValueState {
  if (stored === undefined || stored === null) return { state: 'missing' };
  if (typeof stored === 'object' && '$error' in stored) return { state: 'error', message: stored.$error };
  if (field.kind === 'link') return { state: 'missing' };
  return { state: 'value', kind: field.kind, value: stored };
}

/** Equality of stored values, for "did this write change anything". */
export function sameStoredValue(
  a: StoredValue | null | undefined,
  b: StoredValue | null | undefined,
): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
