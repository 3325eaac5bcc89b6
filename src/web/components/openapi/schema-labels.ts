// The one-line readings of a JSON Schema in the OpenAPI document: its type, its limits and
// defaults, the object a table draws, and the anchor of a named schema.
import type { JsonSchema } from '../../api';

export type Schemas = Record<string, JsonSchema>;

export const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, '');

export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function asSchemas(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? (value as JsonSchema[]) : [];
}

/** A one-line type: `string (uuid)`, `array of Webhook`, `string | null`, `"a" | "b"`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(' | ');
  const union = asSchemas(schema.anyOf).length ? asSchemas(schema.anyOf) : asSchemas(schema.oneOf);
  if (union.length) return union.map(typeLabel).join(' | ');
  if (asSchemas(schema.allOf).length) return asSchemas(schema.allOf).map(typeLabel).join(' & ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${typeLabel(schema.items as JsonSchema | undefined)}`;
      if (
        type === 'object' &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object'
      ) {
        return `object of ${typeLabel(schema.additionalProperties as JsonSchema)}`;
      }
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type ?? 'any';
    })
    .join(' | ');
}

/** Limits and defaults worth reading: `1–200`, `max 500 characters`, `default 50`. */
export function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema as Record<string, unknown>;
  if (typeof minimum === 'number' && typeof maximum === 'number' && maximum < 2 ** 40) {
    notes.push(`${minimum}–${maximum}`);
  } else if (typeof minimum === 'number') {
    notes.push(`≥ ${minimum}`);
  } else if (typeof maximum === 'number') {
    notes.push(`≤ ${maximum}`);
  }
  if (typeof minLength === 'number' && minLength > 0) notes.push(`at least ${minLength} characters`);
  if (typeof maxLength === 'number') notes.push(`at most ${maxLength} characters`);
  if (typeof minItems === 'number' && minItems > 0) notes.push(`at least ${minItems} items`);
  if (typeof maxItems === 'number') notes.push(`at most ${maxItems} items`);
  if ('default' in schema) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The object schema to draw as a property table, looking through arrays and nullable unions. */
export function objectOf(
  schema: JsonSchema,
  schemas: Schemas,
  seen: ReadonlySet<string>,
): JsonSchema | undefined {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    if (seen.has(name)) return undefined;
    const target = schemas[name];
    return target ? objectOf(target, schemas, new Set([...seen, name])) : undefined;
  }
  if (schema.properties && typeof schema.properties === 'object') return schema;
  if (schema.items && typeof schema.items === 'object')
    return objectOf(schema.items as JsonSchema, schemas, seen);
  const union = [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)].filter(
    (part) => part.type !== 'null',
  );
  if (union.length === 1 && union[0]) return objectOf(union[0], schemas, seen);
  return undefined;
}

/** Query parameters: date-or-time unions read as such, without their long patterns. */
export function shortType(schema: JsonSchema): string {
  const formats = [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)]
    .map((part) => part.format)
    .filter((format): format is string => typeof format === 'string');
  return formats.length > 1 ? `string (${formats.join(' or ')})` : typeLabel(schema);
}
