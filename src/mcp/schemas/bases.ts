import type { JsonSchema } from './json-schema';
import { mapSubschemas, NAME_KEY, type Visit } from './subschemas';

/** A closed object schema: its properties, and the names it requires. */
interface Closed {
  properties: Record<string, unknown>;
  required: string[];
}

/**
 * An outputSchema in which an answer that extends a defined one is not written out twice: in
 * manage_webhooks', get_delivery's EventDetails is a Delivery with `payload` and `attemptHistory`
 * (about 1,000 bytes of a tools/list answer, docs/api.md "MCP"). Both are closed objects
 * (`additionalProperties: false`), so in draft 7 neither can `allOf` the other. Instead one base,
 * `<Defined>Or<Extension>`, holds the properties of both and what the defined one requires, and each
 * is that base with what sets it apart:
 *   Delivery:     { allOf: [base, { properties: { payload: false, attemptHistory: false } }] }
 *   EventDetails: { allOf: [base, { required: ["payload", "attemptHistory"] }] }
 * Each accepts exactly what it accepted before. Done only where the schema gets shorter.
 */
export function withSharedBases(schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let next = sharedOnce(current); next; next = sharedOnce(current)) current = next;
  return current;
}

function sharedOnce(schema: JsonSchema): JsonSchema | undefined {
  const definitions = (schema.definitions ?? {}) as Record<string, JsonSchema>;
  const closed: JsonSchema[] = [];
  mapSubschemas(schema, (node) => {
    if (closedObject(node)) closed.push(node);
    return undefined;
  });
  for (const [name, defined] of Object.entries(definitions)) {
    const base = closedObject(defined);
    if (!base) continue;
    for (const node of closed) {
      if (!extendsBase(closedObject(node)!, base)) continue;
      const shared = withBase(schema, name, base, node);
      if (JSON.stringify(shared).length < JSON.stringify(schema).length) return shared;
    }
  }
  return undefined;
}

/** `node` as a closed object schema, if it is one and says nothing more (a name mark aside). */
function closedObject(node: JsonSchema): Closed | undefined {
  const { [NAME_KEY]: _name, type, properties, required = [], additionalProperties, ...other } = node;
  if (type !== 'object' || additionalProperties !== false || Object.keys(other).length) return undefined;
  if (!properties || typeof properties !== 'object' || !Array.isArray(required)) return undefined;
  return { properties: properties as Record<string, unknown>, required: required as string[] };
}

/** Whether `extension` has every property of `base`, the same, more of its own, and requires what it requires. */
function extendsBase(extension: Closed, base: Closed): boolean {
  const names = Object.keys(base.properties);
  return (
    Object.keys(extension.properties).length > names.length &&
    names.every(
      (name) =>
        name in extension.properties &&
        JSON.stringify(extension.properties[name]) === JSON.stringify(base.properties[name]),
    ) &&
    base.required.every((name) => extension.required.includes(name))
  );
}

function withBase(schema: JsonSchema, name: string, base: Closed, node: JsonSchema): JsonSchema {
  const extension = closedObject(node)!;
  const definitions = schema.definitions as Record<string, JsonSchema>;
  const own = Object.keys(extension.properties).filter((property) => !(property in base.properties));
  const moreRequired = extension.required.filter((property) => !base.required.includes(property));
  let baseName = `${name}Or${typeof node[NAME_KEY] === 'string' ? node[NAME_KEY] : 'Extension'}`;
  for (let n = 2; baseName in definitions; n += 1) baseName = `${baseName}${n}`;
  const ref = { $ref: `#/definitions/${baseName}` };

  const json = JSON.stringify(node);
  const replace: Visit = (inner) =>
    JSON.stringify(inner) !== json
      ? undefined
      : moreRequired.length
        ? { allOf: [ref, { required: moreRequired }] }
        : ref;
  const replaced = mapSubschemas(schema, replace);
  const withoutOwn = { properties: Object.fromEntries(own.map((property) => [property, false])) };
  return {
    ...replaced,
    definitions: {
      ...(replaced.definitions as Record<string, JsonSchema>),
      [name]: { allOf: [ref, withoutOwn] },
      [baseName]: {
        type: 'object',
        properties: { ...base.properties, ...extension.properties },
        ...(base.required.length ? { required: base.required } : {}),
        additionalProperties: false,
      },
    },
  };
}
