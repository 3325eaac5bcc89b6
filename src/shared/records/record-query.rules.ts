import { z } from 'zod';
import { ValidationError, type ErrorIssue } from '../app-error';
import type { FieldKind } from './field-kinds';
import { canonicalId, UUID_PATTERN } from '../id-spelling';
import { withCode } from '../with-code';

/**
 * The shape of a record query and which filters fit which field (records/record-query.ts holds
 * the matching semantics). Pure, so the webhook dialog checks a record source with the very rules
 * the server refuses it by.
 */

/** A field as the filter rules need it (the model's field, or the web app's `model/read` field). */
export interface QueryField {
  id: string;
  typeId: string;
  name: string;
  kind: FieldKind;
  config: { options?: string[] };
}

export const RECORD_FILTER_OPS = [
  'eq',
  'neq',
  'contains',
  'gt',
  'lt',
  'isEmpty',
  'isNotEmpty',
  'in',
] as const;
export type RecordFilterOp = (typeof RECORD_FILTER_OPS)[number];

export const QUERY_SEARCH_MAX = 200;
export const QUERY_FILTERS_MAX = 20;
export const QUERY_IN_MAX = 100;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const recordFilterSchema = z.strictObject({
  // A field id in its one spelling (id-spelling.ts), so restrictions and masks see the id the filter runs on.
  fieldId: z.string().min(1).max(100).overwrite(canonicalId),
  op: z.enum(RECORD_FILTER_OPS),
  value: z.unknown().optional(),
});
export type RecordFilter = z.infer<typeof recordFilterSchema>;

export const recordQuerySchema = z.strictObject({
  typeId: z
    .string()
    .refine((id) => UUID_PATTERN.test(id), withCode('queryTypeIdInvalid', 'typeId must be a UUID.'))
    .overwrite(canonicalId),
  search: z
    .string()
    .refine(
      (search) => search.length <= QUERY_SEARCH_MAX,
      withCode('querySearchTooLong', `search can have at most ${QUERY_SEARCH_MAX} characters.`),
    )
    // A refinement is not advertised: the documents state the rule's limit themselves.
    .meta({ maxLength: QUERY_SEARCH_MAX })
    .optional(),
  filters: z
    .array(recordFilterSchema)
    .refine(
      (filters) => filters.length <= QUERY_FILTERS_MAX,
      withCode('queryTooManyFilters', `A query can have at most ${QUERY_FILTERS_MAX} filters.`),
    )
    .meta({ maxItems: QUERY_FILTERS_MAX })
    .optional(),
});
export type RecordQuery = z.infer<typeof recordQuerySchema>;

// ---- Which filters make sense ------------------------------------------------------------

const TEXT_OPS: RecordFilterOp[] = ['eq', 'neq', 'contains', 'in', 'isEmpty', 'isNotEmpty'];
const ORDERED_OPS: RecordFilterOp[] = ['eq', 'neq', 'gt', 'lt', 'in', 'isEmpty', 'isNotEmpty'];
const OPS_BY_KIND: Record<FieldKind, RecordFilterOp[]> = {
  text: TEXT_OPS,
  email: TEXT_OPS,
  url: TEXT_OPS,
  select: TEXT_OPS,
  richText: ['contains', 'isEmpty', 'isNotEmpty'],
  number: ORDERED_OPS,
  formula: ORDERED_OPS,
  date: ORDERED_OPS,
  boolean: ['eq', 'neq', 'in', 'isEmpty', 'isNotEmpty'],
  link: ['eq', 'neq', 'in', 'isEmpty', 'isNotEmpty'],
};

export const isTextLike = (kind: FieldKind) => kind === 'text' || kind === 'email' || kind === 'url';
export const isSearchable = (kind: FieldKind) => isTextLike(kind) || kind === 'select' || kind === 'richText';

function isCalendarDate(value: unknown): boolean {
  const parts = typeof value === 'string' ? DATE.exec(value) : null;
  if (!parts) return false;
  const [year, month, day] = parts.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What an eq/neq/in/gt/lt value of the field must be: a test and its wording. */
function expectedValue(field: QueryField): [(value: unknown) => boolean, string] {
  switch (field.kind) {
    case 'number':
    case 'formula':
      return [(value) => typeof value === 'number' && Number.isFinite(value), 'a number'];
    case 'date':
      return [isCalendarDate, 'a date as YYYY-MM-DD'];
    case 'boolean':
      return [(value) => typeof value === 'boolean', 'true or false'];
    case 'select': {
      const options = field.config.options ?? [];
      return [(value) => options.includes(value as string), `one of the options (${options.join(', ')})`];
    }
    case 'link':
      return [(value) => typeof value === 'string' && UUID_PATTERN.test(value), 'a record id (UUID)'];
    default:
      return [(value) => typeof value === 'string', 'a text'];
  }
}

export type FilterProblem = { customCode: string; at: 'fieldId' | 'op' | 'value'; message: string };

export function filterProblem(
  filter: RecordFilter,
  field: QueryField | undefined,
): FilterProblem | undefined {
  if (!field) {
    return { customCode: 'queryUnknownField', at: 'fieldId', message: `Unknown field ${filter.fieldId}.` };
  }
  const allowed = OPS_BY_KIND[field.kind];
  if (!allowed.includes(filter.op)) {
    const message = `${filter.op} does not apply to the ${field.kind} field '${field.name}'; use ${allowed.join(', ')}.`;
    return { customCode: 'queryOperatorNotAllowed', at: 'op', message };
  }
  const valueProblem = (message: string): FilterProblem => ({
    customCode: 'queryValueInvalid',
    at: 'value',
    message,
  });
  const { op, value } = filter;
  if (op === 'isEmpty' || op === 'isNotEmpty') {
    return value === undefined ? undefined : valueProblem(`${op} takes no value.`);
  }
  if (op === 'contains') {
    return typeof value === 'string' && value.length > 0
      ? undefined
      : valueProblem('contains needs a non-empty text.');
  }
  const [fits, wording] = expectedValue(field);
  if (op === 'in') {
    if (!Array.isArray(value) || value.length > QUERY_IN_MAX) {
      return valueProblem(`in needs an array of at most ${QUERY_IN_MAX} values.`);
    }
    return value.every(fits) ? undefined : valueProblem(`Every value of in must be ${wording}.`);
  }
  return fits(value) ? undefined : valueProblem(`The value must be ${wording}.`);
}

export const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The query's field of that id; field ids compare case-insensitively (UUIDs), typeId too. A query
 * parsed by the schemas above holds its ids in one spelling already; stored ones do since the
 * migration `1764691200000-id-spelling`.
 */
export function fieldOf<Field extends QueryField>(
  fieldId: string,
  typeId: string,
  fields: readonly Field[],
): Field | undefined {
  return fields.find((field) => sameId(field.id, fieldId) && sameId(field.typeId, typeId));
}

/** Refuses filters that do not fit the fields of `query.typeId`, all at once. */
export function validateQuery(
  query: RecordQuery,
  fields: readonly QueryField[],
  path: (string | number)[] = [],
): void {
  const issues: ErrorIssue[] = [];
  (query.filters ?? []).forEach((filter, index) => {
    const problem = filterProblem(filter, fieldOf(filter.fieldId, query.typeId, fields));
    if (problem) {
      const { customCode, at, message } = problem;
      issues.push({ code: 'invalid', path: [...path, 'filters', index, at], message, customCode });
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);
}

/** The operators that apply to a field of this kind, in the order a picker offers them. */
export const filterOpsOf = (kind: FieldKind): readonly RecordFilterOp[] => OPS_BY_KIND[kind];
