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
  for (const variant of variants) {
    const { action: actionSchema, ...properties } = variant.properties ?? {};
    const action = String(actionSchema?.const);
    const required = new Set((variant.required as string[] | undefined) ?? []);
    // Every action takes idempotencyKey: its own description says so, not each line.
    const inputs = Object.keys(properties)
      .filter((name) => name !== 'idempotencyKey')
      .map((name) => (required.has(name) ? `${name} (required)` : name));
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
 * One flattened property: its schema (or the distinct schemas of the actions). Which actions take it,
 * and which require it, is said once, in the `action` description's line per action; descriptions
 * that differ by action are each prefixed with their actions.
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
  const described =
    descriptions.size === 1
      ? [...descriptions.keys()][0]!
      : [...descriptions].map(([text, by]) => `${by.join(', ')}: ${text}`).join(' ');
  const [single] = shapes.values();
  return {
    ...(shapes.size === 1 ? single : { anyOf: [...shapes.values()] }),
    ...(described ? { description: described } : {}),
  };
}
