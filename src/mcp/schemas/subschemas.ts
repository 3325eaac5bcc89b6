import type { JsonSchema } from './json-schema';

/**
 * Where json-schemas.ts marks the node of a named zod schema (`Webhook`, `Delivery`, …, the names
 * of the OpenAPI components): a definition made of it takes that name. Never advertised.
 */
export const NAME_KEY = 'x-mcp-name';

/** Keywords holding schemas: by name, in a list, or one. Anything else is data or an annotation. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions']);
const SCHEMA_LISTS: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_ONES: ReadonlySet<string> = new Set(['items', 'additionalProperties', 'not', 'contains']);

export type Visit = (node: JsonSchema, label: string | undefined) => JsonSchema | undefined;

/** Calls `visit` on every subschema below `node`; a node it returns replaces the one visited. */
export function mapSubschemas(node: JsonSchema, visit: Visit, label?: string): JsonSchema {
  const out: JsonSchema = {};
  const child = (value: unknown, childLabel: string | undefined): unknown => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const schema = value as JsonSchema;
    return visit(schema, childLabel) ?? mapSubschemas(schema, visit, childLabel);
  };
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_MAPS.has(key) && value && typeof value === 'object') {
      const byName = Object.entries(value as Record<string, unknown>);
      out[key] = Object.fromEntries(byName.map(([name, inner]) => [name, child(inner, name)]));
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((inner) => child(inner, label));
    } else {
      out[key] = SCHEMA_ONES.has(key) ? child(value, label) : value;
    }
  }
  return out;
}
