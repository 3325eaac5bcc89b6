import type { JsonSchema } from './json-schema';
import { withSharedBases } from './bases';
import { mapSubschemas, NAME_KEY, type Visit } from './subschemas';

/** Smaller subschemas stay where they are (a `$ref` to `{ "type": "string", "format": "uuid" }` saves nothing). */
const MIN_LENGTH = 100;

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
  return withoutNames(withSharedBases(named));
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
