import type { FieldDef, FieldKind } from '../../record-model/field-kinds';
import {
  fieldOf,
  filterProblem,
  isSearchable,
  isTextLike,
  sameId,
  type RecordFilter,
  type RecordQuery,
} from '../../shared/records/record-query.rules';

// The shapes and the filter rules are pure and shared with the web app's record source editor.
export {
  QUERY_FILTERS_MAX,
  QUERY_IN_MAX,
  QUERY_SEARCH_MAX,
  RECORD_FILTER_OPS,
  fieldOf,
  filterProblem,
  isSearchable,
  isTextLike,
  recordFilterSchema,
  recordQuerySchema,
  sameId,
  validateQuery,
  type RecordFilter,
  type RecordFilterOp,
  type RecordQuery,
} from '../../shared/records/record-query.rules';

/**
 * A record source "list": the records of one type, narrowed by a search and filters on fields and
 * relationships (docs/api.md#rest-endpoints). The same semantics exist twice, in memory
 * (`matchesQuery`, for one changed record) and as SQL (`queryToSql`, for listing); the SQL test
 * holds them equal. In both:
 * - A filter that `validateQuery` would refuse (its field was since deleted or changed kind)
 *   matches nothing, so a stale source never delivers more than it was set up for.
 * - `search` (trimmed; empty means none) is a case-insensitive substring of any text, email, url
 *   or select value, or of the plain text of a richText value.
 * - Case-insensitive means lower case per code point (Unicode simple case mapping), which is what
 *   PostgreSQL's lower() does in a UTF-8 locale.
 * - eq/neq/in compare with the stored value: case-insensitively for text, email and url; exactly
 *   for select (the value is one of the options), number, formula, date and boolean. A missing
 *   value, a formula `{ $error }`, or a value of the wrong JSON type equals nothing, so neq is true.
 * - contains: case-insensitive substring; false when missing.
 * - gt/lt: numbers numerically, dates ('YYYY-MM-DD') as strings; false when missing or an error.
 * - isEmpty: missing, null or ''; for richText also a document without text. An error, 0 and
 *   false are values, not empty.
 * - On a link field: eq → the targets include the id; neq → they don't; in → any overlap;
 *   isEmpty → no targets.
 */

export interface MatchableRecord {
  typeId: string;
  values: Record<string, unknown>;
  links: Record<string, string[]>;
}

// ---- In memory ---------------------------------------------------------------------------

/** Lower case per code point (simple case mapping); only U+0130 lowers to two code points in JS. */
function fold(text: string): string {
  let folded = '';
  for (const char of text) folded += char === '\u0130' ? 'i' : char.toLowerCase();
  return folded;
}

const utf8 = new TextEncoder();

/** jsonb stores object keys shorter first, then by bytes; plain text follows that order. */
function jsonbKeyOrder(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  if (x.length !== y.length) return x.length - y.length;
  const differs = x.findIndex((byte, index) => byte !== y[index]);
  return differs < 0 ? 0 : x[differs]! - y[differs]!;
}

/**
 * The plain text of a richText value: the `text` of every `{ type: 'text' }` node, in document
 * order (depth first, parents before children), joined without separator so that a word split by
 * marks stays one word.
 */
export function richTextPlainText(stored: unknown): string {
  const pieces: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const { type, text } = node as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') pieces.push(text);
    const entries = node as Record<string, unknown>;
    Object.keys(entries)
      .sort(jsonbKeyOrder)
      .forEach((key) => visit(entries[key]));
  };
  if (typeof stored === 'object' && stored !== null)
    visit((stored as { documentJson?: unknown }).documentJson);
  return pieces.join('');
}

function searchableText(stored: unknown, kind: FieldKind): string | undefined {
  if (kind === 'richText') return richTextPlainText(stored);
  return typeof stored === 'string' ? stored : undefined;
}

export function searchTerm(query: RecordQuery): string | undefined {
  const term = query.search?.trim();
  return term ? term : undefined;
}

function storedEquals(stored: unknown, value: unknown, kind: FieldKind): boolean {
  if (isTextLike(kind)) return typeof stored === 'string' && fold(stored) === fold(value as string);
  return stored === value;
}

function isEmptyValue(stored: unknown, kind: FieldKind): boolean {
  if (stored === undefined || stored === null || stored === '') return true;
  return kind === 'richText' && richTextPlainText(stored) === '';
}

function matchesLinks(targets: string[], filter: RecordFilter): boolean {
  const linked = new Set(targets.map((id) => id.toLowerCase()));
  const includes = (id: unknown) => linked.has((id as string).toLowerCase());
  switch (filter.op) {
    case 'eq':
      return includes(filter.value);
    case 'neq':
      return !includes(filter.value);
    case 'in':
      return (filter.value as unknown[]).some(includes);
    case 'isEmpty':
      return linked.size === 0;
    default:
      return linked.size > 0; // isNotEmpty
  }
}

/** Own keys only: a field id never reads the object's prototype. */
function storedValue(record: MatchableRecord, fieldId: string): unknown {
  return Object.hasOwn(record.values, fieldId) ? record.values[fieldId] : undefined;
}

function matchesFilter(record: MatchableRecord, filter: RecordFilter, field: FieldDef): boolean {
  if (field.kind === 'link') return matchesLinks(record.links[field.id] ?? [], filter);
  const stored = storedValue(record, field.id);
  const { op, value } = filter;
  switch (op) {
    case 'eq':
      return storedEquals(stored, value, field.kind);
    case 'neq':
      return !storedEquals(stored, value, field.kind);
    case 'in':
      return (value as unknown[]).some((item) => storedEquals(stored, item, field.kind));
    case 'contains':
      return fold(searchableText(stored, field.kind) ?? '').includes(fold(value as string));
    case 'gt':
    case 'lt': {
      const type = field.kind === 'date' ? 'string' : 'number';
      if (typeof stored !== type) return false;
      const [a, b] = [stored as number | string, value as number | string];
      return op === 'gt' ? a > b : a < b;
    }
    case 'isEmpty':
      return isEmptyValue(stored, field.kind);
    case 'isNotEmpty':
      return !isEmptyValue(stored, field.kind);
  }
}

/** Whether one record belongs to the query's list (the semantics are documented at the top). */
export function matchesQuery(record: MatchableRecord, query: RecordQuery, fields: FieldDef[]): boolean {
  if (!sameId(record.typeId, query.typeId)) return false;
  const term = searchTerm(query);
  if (term !== undefined) {
    const found = fields.some((field) => {
      if (!sameId(field.typeId, query.typeId) || !isSearchable(field.kind)) return false;
      const text = searchableText(storedValue(record, field.id), field.kind);
      return text !== undefined && fold(text).includes(fold(term));
    });
    if (!found) return false;
  }
  return (query.filters ?? []).every((filter) => {
    const field = fieldOf(filter.fieldId, query.typeId, fields);
    return field !== undefined && !filterProblem(filter, field) && matchesFilter(record, filter, field);
  });
}
