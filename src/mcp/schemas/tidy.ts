import type { JsonSchema } from './json-schema';

/** The formats zod writes with a `pattern` of its own beside them (`z.uuid()`, `z.iso.datetime()`, …). */
const ZOD_FORMATS: ReadonlySet<string> = new Set([
  'uuid',
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'ipv4',
  'ipv6',
]);

/** Keywords whose value is data, not a schema: never walked into. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['enum', 'const', 'required', 'default', 'examples']);

/**
 * What zod writes that tells a client nothing, left out of what the tools advertise (issue 27: a
 * uuid's or date-time's regex is 166 or 271 characters, on every id and time). The server still
 * checks every call with the zod schema, so nothing here weakens validation:
 * - a `pattern` beside a `format` zod wrote it for (`format: "uuid"` says it; the SDK client's Ajv
 *   checks formats with ajv-formats);
 * - `z.int()`'s ±2^53 bounds, and `propertyNames: { type: "string" }` (every JSON key is one);
 * - with `nullable`, `anyOf: [{ type: T, … }, { type: "null" }]` becomes `type: [T, "null"]` (the
 *   same schema: the other keywords apply to T's values only), unless a branch has its own
 *   description, enum, const or `$ref`;
 * - with `validationOnly` (output schemas): descriptions. An output schema is what a client checks
 *   `structuredContent` against, sent in every tools/list; what each field means is said once, in
 *   the OpenAPI document and docs/api.md. `additionalProperties: false` stays: an answer with a field
 *   its view does not have (a secret) fails the client's check. Also what the rest of a node
 *   already says (`withoutImplied`), and a nullable enum is one enum with `null` among its values.
 *   Inputs keep them: a model reads them there, and tool APIs convert them, as zod writes them.
 */
export function tidySchema(
  schema: JsonSchema,
  options: { mergeNullable: boolean; validationOnly?: boolean },
): JsonSchema {
  const tidy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(tidy);
    if (!node || typeof node !== 'object') return node;
    const source = node as JsonSchema;
    let out: JsonSchema = {};
    for (const [key, value] of Object.entries(source)) {
      if (options.validationOnly && key === 'description') continue;
      if (key === 'pattern' && ZOD_FORMATS.has(String(source.format))) continue;
      if ((key === 'minimum' || key === 'maximum') && isSafeIntegerBound(value)) continue;
      if (key === 'propertyNames' && isStringType(value)) continue;
      out[key] = DATA_KEYWORDS.has(key) ? value : key === 'properties' ? tidyEach(value, tidy) : tidy(value);
    }
    if (options.validationOnly) out = withoutImplied(out);
    if (options.mergeNullable) out = mergedNullable(out);
    return out;
  };
  return tidy(schema) as JsonSchema;
}

function tidyEach(properties: unknown, tidy: (node: unknown) => unknown): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties as Record<string, unknown>).map(([k, v]) => [k, tidy(v)]),
  );
}

/** The bounds `z.int()` writes: JSON numbers past them are not exact anyway. */
const isSafeIntegerBound = (value: unknown) =>
  value === Number.MIN_SAFE_INTEGER || value === Number.MAX_SAFE_INTEGER;

const isStringType = (value: unknown) =>
  typeof value === 'object' && value !== null && JSON.stringify(value) === '{"type":"string"}';

/**
 * For validation only, keywords that say what the node already says (each accepts the same values
 * without them): `type` beside an `enum` or `const` whose values are all of that type;
 * `additionalProperties: {}` (any is the default); an `anyOf` branch that is only another `anyOf`
 * (its branches are the outer one's).
 */
function withoutImplied(schema: JsonSchema): JsonSchema {
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : undefined;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const typeImplied = values?.every((value) => types.some((type) => isOfType(value, type)));
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeImplied) continue;
    if (key === 'additionalProperties' && isEmptyObject(value)) continue;
    out[key] = key === 'anyOf' && Array.isArray(value) ? value.flatMap(branchesOf) : value;
  }
  return out;
}

const branchesOf = (branch: unknown): unknown[] =>
  branch &&
  typeof branch === 'object' &&
  Object.keys(branch).length === 1 &&
  Array.isArray((branch as JsonSchema).anyOf)
    ? ((branch as JsonSchema).anyOf as unknown[])
    : [branch];

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

function isOfType(value: unknown, type: unknown): boolean {
  if (type === 'null') return value === null;
  if (type === 'integer') return Number.isInteger(value);
  return ['string', 'number', 'boolean'].includes(String(type)) && typeof value === type;
}

function mergedNullable(schema: JsonSchema): JsonSchema {
  const { anyOf, ...rest } = schema;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return schema;
  const nullAt = anyOf.findIndex((branch) => JSON.stringify(branch) === '{"type":"null"}');
  const other = anyOf[1 - nullAt] as JsonSchema | undefined;
  if (nullAt >= 0 && other && Array.isArray(other.enum) && Object.keys(other).length === 1) {
    return { enum: [...other.enum, null], ...rest };
  }
  if (nullAt < 0 || !other || typeof other.type !== 'string') return schema;
  if (['description', 'enum', 'const', '$ref'].some((key) => key in other)) return schema;
  if (Object.keys(rest).some((key) => key in other)) return schema;
  return { ...other, type: [other.type, 'null'], ...rest };
}
