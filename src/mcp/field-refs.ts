import type { FieldDef } from '../record-model/field-kinds';
import { ValidationError, type ErrorIssue } from '../shared/app-error';

/** Where a field reference sits in a record tool's input: values and filters take value fields, links link fields. */
export type FieldSection = 'values' | 'links' | 'filters';

const FROM_MODEL = 'or use a field id from get_record_model';

/**
 * The record tools take a field by its stable id or by its name (trimmed, case-insensitive), so an
 * assistant can write "Name" where a person would. A name must be unambiguous within the type; an
 * unknown or ambiguous name is refused naming the fields there are, never guessed. Returns field
 * ids; the record rules then run on ids exactly as for REST.
 */
export function resolveFieldRef(
  type: { name: string; fields: readonly FieldDef[] },
  section: FieldSection,
  reference: string,
  path: (string | number)[],
): string | ErrorIssue {
  const byId = type.fields.find((field) => field.id === reference);
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
      `Several fields of ${type.name} are named "${reference}": use the field id from get_record_model ` +
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
  const names = type.fields.filter((candidate) => section === 'filters' || fits(candidate));
  return issue(
    `No field "${reference}" in ${type.name}. ${section === 'links' ? 'Its link fields' : 'Its fields'}: ` +
      `${names.map((candidate) => candidate.name).join(', ') || 'none'}; ${FROM_MODEL}.`,
    'recordFieldUnknown',
  );
}

/** A map keyed by field id or name, rekeyed by field id; every bad key is one issue. */
export function resolveFieldKeys<Value>(
  type: { name: string; fields: readonly FieldDef[] },
  section: 'values' | 'links',
  input: Record<string, Value> | undefined,
): Record<string, Value> | undefined {
  if (!input) return undefined;
  const issues: ErrorIssue[] = [];
  const resolved: Record<string, Value> = {};
  const sentAs = new Map<string, string>();
  for (const [key, value] of Object.entries(input)) {
    const id = resolveFieldRef(type, section, key, [section, key]);
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
  if (issues.length) throw new ValidationError(issues);
  return resolved;
}

/** Record filters with `fieldId` given as an id or a name, rewritten to ids. */
export function resolveFilterFields<Filter extends { fieldId: string }>(
  type: { name: string; fields: readonly FieldDef[] },
  filters: Filter[] | undefined,
): Filter[] | undefined {
  if (!filters) return undefined;
  const issues: ErrorIssue[] = [];
  const resolved = filters.map((filter, index) => {
    const id = resolveFieldRef(type, 'filters', filter.fieldId, ['filters', index, 'fieldId']);
    if (typeof id === 'string') return { ...filter, fieldId: id };
    issues.push(id);
    return filter;
  });
  if (issues.length) throw new ValidationError(issues);
  return resolved;
}
