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

/** Smaller subschemas stay where they are (a `$ref` to `{ "type": "string", "format": "uuid" }` saves nothing). */
const MIN_LENGTH = 100;

type Visit = (node: JsonSchema, label: string | undefined) => JsonSchema | undefined;

/** Calls `visit` on every subschema below `node`; a node it returns replaces the one visited. */
function mapSubschemas(node: JsonSchema, visit: Visit, label?: string): JsonSchema {
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

/**
 * An outputSchema with each subschema that occurs more than once written once under `definitions`
 * (draft 7) and `$ref`erenced from the root, largest saving first (issue 27: the union of
 * manage_webhooks' answers held the webhook, the delivery and their parts several times each).
 * A definition takes the node's name, else the property it stands under. Refs are only ever to
 * `#/definitions/…` of the same document, which the SDK client's Ajv resolves.
 */
export function withDefinitions(schema: JsonSchema): JsonSchema {
  let root = schema;
  const definitions: Record<string, JsonSchema> = {};
  for (;;) {
    const counts = new Map<string, { count: number; labels: string[]; node: JsonSchema }>();
    const count: Visit = (node, label) => {
      const json = JSON.stringify(node);
      const seen = counts.get(json) ?? { count: 0, labels: [], node };
      seen.count += 1;
      if (label && !seen.labels.includes(label)) seen.labels.push(label);
      counts.set(json, seen);
      return undefined;
    };
    mapSubschemas(root, count);
    for (const definition of Object.values(definitions)) mapSubschemas(definition, count);

    let best: { json: string; node: JsonSchema; name: string; saving: number } | undefined;
    for (const [json, seen] of counts) {
      if (seen.count < 2 || json.length < MIN_LENGTH) continue;
      const name = definitionName(seen.node, seen.labels, definitions);
      const ref = JSON.stringify({ $ref: `#/definitions/${name}` }).length;
      const saving = (seen.count - 1) * json.length - seen.count * ref - name.length - 4;
      if (saving > (best?.saving ?? 0)) best = { json, node: seen.node, name, saving };
    }
    if (!best) break;
    const { json, name } = best;
    const replace: Visit = (node) =>
      JSON.stringify(node) === json ? { $ref: `#/definitions/${name}` } : undefined;
    root = mapSubschemas(root, replace);
    for (const [other, definition] of Object.entries(definitions)) {
      definitions[other] = mapSubschemas(definition, replace);
    }
    definitions[name] = best.node;
  }
  const named = Object.keys(definitions).length ? { ...root, definitions } : root;
  return withoutNames(named);
}

function definitionName(node: JsonSchema, labels: string[], taken: Record<string, unknown>): string {
  const given = typeof node[NAME_KEY] === 'string' ? node[NAME_KEY] : undefined;
  const base =
    given ??
    (labels
      .slice(0, 2)
      .map((label, i) => (i ? capitalized(label) : label))
      .join('Or') ||
      'shared');
  let name = base;
  for (let n = 2; name in taken; n += 1) name = `${base}${n}`;
  return name;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The schema without the name marks json-schemas.ts left on named nodes. */
export function withoutNames(schema: JsonSchema): JsonSchema {
  const strip = (node: JsonSchema): JsonSchema => {
    const { [NAME_KEY]: _name, ...rest } = node;
    return mapSubschemas(rest, (inner) => strip(inner));
  };
  return strip(schema);
}
