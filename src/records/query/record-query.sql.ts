import { escapeLike } from '../../db/like-pattern';
import type { FieldDef } from '../../record-model/field-kinds';
import {
  fieldOf,
  filterProblem,
  isSearchable,
  isTextLike,
  sameId,
  searchTerm,
  type RecordFilter,
  type RecordQuery,
} from './record-query';

// The SQL twin of matchesQuery (record-query.ts documents the semantics both follow; the SQL
// test in test/records holds them equal).

class SqlParams {
  readonly values: unknown[] = [];
  private readonly keys = new Map<string, string>();
  constructor(private readonly offset: number) {}

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }

  /** A field id as a jsonb key: a parameter too, once per field. */
  key(fieldId: string): string {
    let placeholder = this.keys.get(fieldId);
    if (!placeholder) this.keys.set(fieldId, (placeholder = `${this.add(fieldId)}::text`));
    return placeholder;
  }
}

const PLAIN_TEXT_PATH = `'strict $.** ? (@.type == "text" && @.text.type() == "string").text'`;

/**
 * A WHERE fragment over `records <alias>` (id uuid, type_id uuid, values jsonb) and
 * `record_links` (record_id, field_id, target_record_id), selecting exactly the records that
 * `matchesQuery` accepts. Every value and jsonb key is a numbered parameter after `paramOffset`.
 */
export function queryToSql(
  query: RecordQuery,
  fields: FieldDef[],
  alias: string,
  paramOffset = 0,
): { where: string; params: unknown[] } {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) throw new Error(`Not an SQL alias: ${alias}`);
  const params = new SqlParams(paramOffset);
  const json = (fieldId: string) => `(${alias}."values" -> ${params.key(fieldId)})`;
  const text = (fieldId: string) => `(${alias}."values" ->> ${params.key(fieldId)})`;
  const isString = (fieldId: string) => `jsonb_typeof(${json(fieldId)}) = 'string'`;
  const plainText = (fieldId: string) =>
    `coalesce((SELECT string_agg(piece.t #>> '{}', '' ORDER BY piece.n) FROM jsonb_path_query(` +
    `${json(fieldId)} -> 'documentJson', ${PLAIN_TEXT_PATH}, '{}', true) WITH ORDINALITY AS piece(t, n)), '')`;
  const like = (pattern: string) => `LIKE ('%' || lower(${pattern}) || '%') ESCAPE '\\'`;
  const containsText = (field: FieldDef, pattern: string) =>
    field.kind === 'richText'
      ? `lower(${plainText(field.id)}) ${like(pattern)}`
      : `coalesce(${isString(field.id)} AND lower(${text(field.id)}) ${like(pattern)}, false)`;

  const linkExists = (field: FieldDef, target?: string) => {
    const l = `${alias}_link`;
    return (
      `EXISTS (SELECT 1 FROM record_links ${l} WHERE ${l}.record_id = ${alias}.id` +
      ` AND ${l}.field_id = ${params.add(field.id)}::uuid${target ? ` AND ${l}.target_record_id ${target}` : ''})`
    );
  };

  const equals = (field: FieldDef, value: unknown) =>
    isTextLike(field.kind)
      ? `coalesce(${isString(field.id)} AND lower(${text(field.id)}) = lower(${params.add(value)}::text), false)`
      : `coalesce(${json(field.id)} = ${params.add(JSON.stringify(value))}::jsonb, false)`;
  const equalsAny = (field: FieldDef, values: unknown[]) => {
    const items = `jsonb_array_elements${isTextLike(field.kind) ? '_text' : ''}(${params.add(JSON.stringify(values))}::jsonb)`;
    return isTextLike(field.kind)
      ? `coalesce(${isString(field.id)} AND lower(${text(field.id)}) IN (SELECT lower(item.v) FROM ${items} AS item(v)), false)`
      : `coalesce(${json(field.id)} IN (SELECT item.v FROM ${items} AS item(v)), false)`;
  };
  const compare = (field: FieldDef, operator: '>' | '<', value: unknown) =>
    field.kind === 'date'
      ? `coalesce(${isString(field.id)} AND ${text(field.id)} COLLATE "C" ${operator} ${params.add(value)}::text, false)`
      : `coalesce(jsonb_typeof(${json(field.id)}) = 'number' AND ${json(field.id)} ${operator} ${params.add(JSON.stringify(value))}::jsonb, false)`;
  const isEmpty = (field: FieldDef) =>
    field.kind === 'richText' ? `${plainText(field.id)} = ''` : `coalesce(${text(field.id)}, '') = ''`;

  const linkCondition = (field: FieldDef, { op, value }: RecordFilter): string => {
    switch (op) {
      case 'eq':
        return linkExists(field, `= ${params.add(value)}::uuid`);
      case 'neq':
        return `NOT ${linkExists(field, `= ${params.add(value)}::uuid`)}`;
      case 'in':
        return linkExists(field, `= ANY(${params.add(value)}::uuid[])`);
      case 'isEmpty':
        return `NOT ${linkExists(field)}`;
      default:
        return linkExists(field); // isNotEmpty
    }
  };

  const condition = (field: FieldDef, filter: RecordFilter): string => {
    if (field.kind === 'link') return linkCondition(field, filter);
    const { op, value } = filter;
    switch (op) {
      case 'eq':
        return equals(field, value);
      case 'neq':
        return `NOT ${equals(field, value)}`;
      case 'in':
        return equalsAny(field, value as unknown[]);
      case 'contains':
        return containsText(field, `${params.add(escapeLike(value as string))}::text`);
      case 'gt':
        return compare(field, '>', value);
      case 'lt':
        return compare(field, '<', value);
      case 'isEmpty':
        return isEmpty(field);
      case 'isNotEmpty':
        return `NOT (${isEmpty(field)})`;
    }
  };

  const conditions = [`${alias}.type_id = ${params.add(query.typeId)}::uuid`];
  const term = searchTerm(query);
  if (term !== undefined) {
    const searchable = fields.filter(
      (field) => sameId(field.typeId, query.typeId) && isSearchable(field.kind),
    );
    const pattern = searchable.length > 0 ? `${params.add(escapeLike(term))}::text` : '';
    conditions.push(searchable.map((field) => containsText(field, pattern)).join(' OR ') || 'FALSE');
  }
  for (const filter of query.filters ?? []) {
    const field = fieldOf(filter.fieldId, query.typeId, fields);
    conditions.push(field && !filterProblem(filter, field) ? condition(field, filter) : 'FALSE');
  }
  return { where: conditions.map((part) => `(${part})`).join(' AND '), params: params.values };
}
