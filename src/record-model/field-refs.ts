import type { FieldDef } from './field-kinds';
import { ValidationError, type ErrorIssue } from '../shared/app-error';
import { canonicalId } from '../shared/id-spelling';

/** Where a field reference sits in a record input: values and filters take value fields, links link fields. */
export type FieldSection = 'values' | 'links' | 'filters';

/** A record type as field references see it: the live fields of the type, nothing of any other type. */
export type FieldRefType = { name: string; fields: readonly FieldDef[] };

/** What a reference is resolved for. */
export interface FieldRefOptions {
  /** Where the caller reads field ids, named in a refusal: `get_record_model`, `POST /api/v1/model/read`. */
  modelSource: string;
  /**
   * The fields the caller's role restricts. They resolve like any field of the type (the caller's
   * model lists them, marked restricted), so the write rules refuse them exactly as by id
   * (`recordFieldRestricted`); a refusal's list of the type's fields leaves them out.
   */
  isRestricted?: (fieldId: string) => boolean;
}

/**
 * The one resolution of a field reference (REST, the web app and MCP record writes; MCP record
 * filters): a field's stable id, or its name (trimmed, case-insensitive). The rules, in order:
 *
 * 1. An id of a field of the type is that field, even when another field's name reads the same
 *    (a name is free text, so an Admin can name a field after another's id): ids are the stable
 *    contract, and the other field stays reachable by its own id.
 * 2. Otherwise the reference is a name. Several fields of the type with that name are refused as
 *    `recordFieldAmbiguous` with their ids, never guessed. (The database keeps live names unique per
 *    type by `lower(name)`; names are matched trimmed, so only a name stored with spaces around it,
 *    which the API never saves, can meet another.)
 * 3. A name of a field of the wrong section (a link field in `values`) is refused saying where it goes.
 * 4. Anything else is `recordFieldUnknown`, naming the type's fields. Only the type's live fields
 *    are looked at: a deleted field, and a field of any other type (one the caller cannot read
 *    included), answer exactly as a name nobody ever used.
 */
export function resolveFieldRef(
  type: FieldRefType,
  section: FieldSection,
  reference: string,
  path: (string | number)[],
  options: FieldRefOptions,
): string | ErrorIssue {
  // An id in any case is that field's id (src/shared/id-spelling.ts); a name is compared below.
  const id = canonicalId(reference);
  const byId = type.fields.find((field) => field.id === id);
  if (byId) return byId.id;
  const wanted = reference.trim().toLowerCase();
  const named = type.fields.filter((field) => field.name.trim().toLowerCase() === wanted);
  const issue = (message: string, customCode: string): ErrorIssue => ({
    code: 'invalid',
    path,
    message,
    customCode,
  });
  if (named.length > 1) {
    return issue(
      `Several fields of ${type.name} are named "${reference}": use the field id from ${options.modelSource} ` +
        `(${named.map((field) => field.id).join(', ')}).`,
      'recordFieldAmbiguous',
    );
  }
  const [field] = named;
  const fits = (candidate: FieldDef) => (section === 'links') === (candidate.kind === 'link');
  if (field && (section === 'filters' || fits(field))) return field.id;
  if (field) {
    return issue(
      field.kind === 'link'
        ? `${field.name} is a link field: set it in links (record ids).`
        : `${field.name} is not a link field: set it in values.`,
      'recordFieldUnknown',
    );
  }
  const listed = type.fields.filter(
    (candidate) => (section === 'filters' || fits(candidate)) && !options.isRestricted?.(candidate.id),
  );
  return issue(
    `No field "${reference}" in ${type.name}. ${section === 'links' ? 'Its link fields' : 'Its fields'}: ` +
      `${listed.map((candidate) => candidate.name).join(', ') || 'none'}; or use a field id from ${options.modelSource}.`,
    'recordFieldUnknown',
  );
}

/** A map keyed by field id or name, rekeyed by field id, and the issues of the keys that are not. */
function resolveKeys<Value>(
  type: FieldRefType,
  section: 'values' | 'links',
  input: Record<string, Value> | undefined,
  options: FieldRefOptions,
  issues: ErrorIssue[],
): Record<string, Value> | undefined {
  if (!input) return undefined;
  const resolved: Record<string, Value> = {};
  const sentAs = new Map<string, string>();
  for (const [key, value] of Object.entries(input)) {
    const id = resolveFieldRef(type, section, key, [section, key], options);
    if (typeof id !== 'string') {
      issues.push(id);
    } else if (sentAs.has(id)) {
      issues.push({
        code: 'invalid',
        path: [section, key],
        message: `${key} and ${sentAs.get(id)} are the same field: send it once.`,
        customCode: 'recordFieldDuplicate',
      });
    } else {
      sentAs.set(id, key);
      resolved[id] = value;
    }
  }
  return resolved;
}

/**
 * A record write's `values` and `links`, keyed by field id or name, rekeyed by field id. Every bad
 * key of both is one issue of one refusal, thrown before anything is read or written.
 */
export function resolveWriteFields<
  Input extends { values?: Record<string, unknown>; links?: Record<string, string[]> },
>(type: FieldRefType, input: Input, options: FieldRefOptions): Input {
  const issues: ErrorIssue[] = [];
  const values = resolveKeys(type, 'values', input.values, options, issues);
  const links = resolveKeys(type, 'links', input.links, options, issues);
  if (issues.length) throw new ValidationError(issues);
  return { ...input, values, links };
}

/** Record filters with `fieldId` given as an id or a name, rewritten to ids. */
export function resolveFilterFields<Filter extends { fieldId: string }>(
  type: FieldRefType,
  filters: Filter[] | undefined,
  options: FieldRefOptions,
): Filter[] | undefined {
  if (!filters) return undefined;
  const issues: ErrorIssue[] = [];
  const resolved = filters.map((filter, index) => {
    const id = resolveFieldRef(type, 'filters', filter.fieldId, ['filters', index, 'fieldId'], options);
    if (typeof id === 'string') return { ...filter, fieldId: id };
    issues.push(id);
    return filter;
  });
  if (issues.length) throw new ValidationError(issues);
  return resolved;
}
