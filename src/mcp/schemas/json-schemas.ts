import { z } from 'zod';
import { withDefinitions } from './definitions';
import { mcpOverride } from './names';
import type { JsonSchema } from './json-schema';
import { tidySchema } from './tidy';

/**
 * A tool's advertised `inputSchema`, from the zod schema that also validates its calls. A
 * discriminated union on `action` (manage_webhooks) is advertised as ONE flat object: the Claude,
 * OpenAI, Bedrock and Vertex tool APIs refuse `oneOf`/`anyOf`/`allOf` at the root of a tool's input
 * schema, and clients then drop the tool (or the whole session). The `action` description lists each
 * action's inputs, marking the required ones (said there once: a property does not repeat which actions
 * take it); the zod union still refuses any other shape.
 */
export const inputJsonSchema = (schema: z.ZodType): JsonSchema => once(inputs, schema, advertisedInput);

/** The zod schemas of the tools never change: each is converted once, not on every tools/list. */
const inputs = new WeakMap<z.ZodType, JsonSchema>();
const outputs = new WeakMap<z.ZodType, JsonSchema>();
function once(
  cache: WeakMap<z.ZodType, JsonSchema>,
  schema: z.ZodType,
  convert: (schema: z.ZodType) => JsonSchema,
) {
  const known = cache.get(schema);
  if (known) return known;
  const converted = convert(schema);
  cache.set(schema, converted);
  return converted;
}

function advertisedInput(schema: z.ZodType): JsonSchema {
  const converted = z.toJSONSchema(schema, { io: 'input', override: mcpOverride('input') }) as JsonSchema;
  // No `$schema`: MCP reads an inputSchema without one as JSON Schema 2020-12, which zod writes.
  const { $schema: _dialect, ...json } = tidySchema(converted, { mergeNullable: false });
  return Array.isArray(json.oneOf) ? flattenActions(json.oneOf as JsonSchema[]) : json;
}

/**
 * A tool's `outputSchema`. Draft 7, because the official SDK client validates `structuredContent`
 * with Ajv's draft-07 validator (as the SDK's own McpServer advertises); the MCP schema requires
 * `type: "object"` at the root, also for a union of object results.
 */
export const outputJsonSchema = (schema: z.ZodType): JsonSchema => once(outputs, schema, advertisedOutput);

function advertisedOutput(schema: z.ZodType): JsonSchema {
  const converted = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    override: mcpOverride('output'),
  }) as JsonSchema;
  const json = tidySchema(converted, { mergeNullable: true, validationOnly: true });
  return withDefinitions(json.type === undefined ? { type: 'object', ...json } : json);
}

function flattenActions(variants: JsonSchema[]): JsonSchema {
  const byProperty = new Map<string, { action: string; schema: JsonSchema }[]>();
  const actionLines: string[] = [];
  const inputsOf = new Map<string, string[]>();
  for (const variant of variants) {
    const { action: actionSchema, ...properties } = variant.properties ?? {};
    const action = String(actionSchema?.const);
    const required = new Set((variant.required as string[] | undefined) ?? []);
    // Every action takes idempotencyKey: its own description says so, not each line.
    const names = Object.keys(properties).filter((name) => name !== 'idempotencyKey');
    const like = earlierWithin(inputsOf, names);
    inputsOf.set(action, names);
    const listed = like ? names.filter((name) => !inputsOf.get(like)!.includes(name)) : names;
    const shared = like ? inputsOf.get(like)!.filter((name) => required.has(name)) : [];
    const inputs = [
      ...(like
        ? [`those of ${like} (${shared.length ? `${shared.join(', ')} required` : 'none required'})`]
        : []),
      ...listed.map((name) => (required.has(name) ? `${name} (required)` : name)),
    ];
    actionLines.push(
      `- ${action}: ${String(actionSchema?.description ?? '')} Inputs: ${inputs.join(', ') || 'none'}.`,
    );
    for (const [name, schema] of Object.entries(properties)) {
      const uses = byProperty.get(name) ?? [];
      uses.push({ action, schema });
      byProperty.set(name, uses);
    }
  }
  const properties: Record<string, JsonSchema> = {
    action: {
      type: 'string',
      enum: variants.map((variant) => variant.properties?.action?.const),
      description: ['What to do; each action takes only its own inputs:', ...actionLines].join('\n'),
    },
  };
  for (const [name, uses] of byProperty) properties[name] = mergedProperty(uses);
  return {
    type: 'object',
    properties,
    required: ['action'],
    additionalProperties: false,
  };
}

/**
 * The earlier action whose inputs (at least 4) are all among `names`, the one with most: an action
 * line then says "those of <it>" instead of restating them (update takes create's fields).
 */
function earlierWithin(inputsOf: Map<string, string[]>, names: string[]): string | undefined {
  let found: string | undefined;
  for (const [action, earlier] of inputsOf) {
    if (earlier.length < 4 || !earlier.every((name) => names.includes(name))) continue;
    if (!found || earlier.length > inputsOf.get(found)!.length) found = action;
  }
  return found;
}

/**
 * One flattened property: its schema (or the distinct schemas of the actions, less those another
 * one already accepts). Which actions take it, and which require it, is said once, in the `action`
 * description's line per action; where descriptions differ by action, one used by more actions than
 * any other is said plainly, and each other one is prefixed with its actions.
 */
function mergedProperty(uses: { action: string; schema: JsonSchema }[]): JsonSchema {
  const shapes = new Map<string, JsonSchema>();
  const descriptions = new Map<string, string[]>();
  for (const { action, schema } of uses) {
    const { description, ...shape } = schema;
    shapes.set(JSON.stringify(shape), shape);
    if (typeof description === 'string') {
      descriptions.set(description, [...(descriptions.get(description) ?? []), action]);
    }
  }
  const [most, next] = [...descriptions].sort(([, a], [, b]) => b.length - a.length);
  const plain = most && (!next || most[1].length > next[1].length) ? most[0] : undefined;
  const described = [
    ...(plain ? [plain] : []),
    ...[...descriptions].filter(([text]) => text !== plain).map(([text, by]) => `${by.join(', ')}: ${text}`),
  ].join(' ');
  const all = [...shapes.values()];
  const kept = all.filter((shape) => !all.some((other) => other !== shape && acceptsAll(other, shape)));
  return {
    ...(kept.length === 1 ? kept[0] : { anyOf: kept }),
    ...(described ? { description: described } : {}),
  };
}

/**
 * Whether `wide`, a string of at most some length and nothing more, takes every value `narrow`
 * takes (names of an enum, a uuid, a shorter string): then `narrow` tells a client nothing more.
 */
function acceptsAll(wide: JsonSchema, narrow: JsonSchema): boolean {
  const { type, maxLength, ...other } = wide;
  if (type !== 'string' || typeof maxLength !== 'number' || Object.keys(other).length) return false;
  if (narrow.type !== 'string' || narrow.pattern !== undefined) return false;
  if (Array.isArray(narrow.enum)) return narrow.enum.every((value) => String(value).length <= maxLength);
  if (narrow.format === 'uuid') return maxLength >= 36;
  return typeof narrow.maxLength === 'number' && narrow.maxLength <= maxLength && narrow.format === undefined;
}
