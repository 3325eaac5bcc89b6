import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { JsonSchema } from './openapi-types';

export type { JsonSchema };
export type Io = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';

/**
 * The schemas a feature names in `components.schemas`: request bodies, read as what they accept;
 * responses, read as what they produce; `shared` ones in both directions (webhooks are written and
 * read with the same record settings).
 */
export interface ComponentSchemas {
  shared?: Record<string, z.ZodType>;
  requests?: Record<string, z.ZodType>;
  responses?: Record<string, z.ZodType>;
}

/**
 * `components.schemas` of the document, converted by `z.toJSONSchema` from the features' named
 * zod schemas, and the JSON Schema of any other zod schema with those components as `$ref`s. A
 * name whose input and output forms differ (a default, a transform) gets a second component
 * `<name>Output`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly registries: Record<Io, z.core.$ZodRegistry<{ id: string }>>;
  /** Registered id → component name, per direction. */
  private readonly names: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };

  constructor(features: readonly ComponentSchemas[]) {
    const merged = (direction: 'requests' | 'responses') => {
      const schemas: Record<string, z.ZodType> = {};
      for (const feature of features) {
        for (const [name, schema] of Object.entries({ ...feature.shared, ...feature[direction] })) {
          if (name in schemas) throw new Error(`openapi: two components are named ${name}`);
          schemas[name] = schema;
        }
      }
      return schemas;
    };
    this.registries = { input: named(merged('requests')), output: named(merged('responses')) };
    const input = convertRegistry(this.registries.input, 'input');
    for (const [id, schema] of Object.entries(input)) {
      this.schemas[id] = schema;
      this.names.input.set(id, id);
    }
    const output = convertRegistry(this.registries.output, 'output');
    const renamed = renamedOutputs(this.schemas, output);
    for (const [id, schema] of Object.entries(output)) {
      const name = renamed.has(id) ? `${id}Output` : id;
      this.schemas[name] = rewriteRefs(schema, (ref) => this.outputRef(ref, renamed));
      this.names.output.set(id, name);
    }
  }

  /** A `$ref` to the component of a registered schema. */
  ref(schema: z.ZodType, io: Io): JsonSchema {
    const id = this.registries[io].get(schema)?.id;
    const name = id === undefined ? undefined : this.names[io].get(id);
    if (!name)
      throw new Error(`openapi: no ${io} component for this schema; add it to its feature's components`);
    return { $ref: `${COMPONENTS}${name}` };
  }

  /** The JSON Schema of `schema`, with the registered schemas inside it as component `$ref`s. */
  inline(schema: z.ZodType, io: Io): JsonSchema {
    if (this.registries[io].has(schema)) return this.ref(schema, io);
    const { $defs, ...converted } = clean(
      z.toJSONSchema(schema, { io, metadata: this.registries[io], override: withGlobalMeta }),
    );
    void $defs; // every definition is a registered schema, already in the components
    return rewriteRefs(converted, (ref) => {
      const id = ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined;
      const name = id === undefined ? undefined : this.names[io].get(id);
      return name ? `${COMPONENTS}${name}` : ref;
    });
  }

  private outputRef(ref: string, renamed: ReadonlySet<string>): string {
    const id = ref.slice(COMPONENTS.length);
    return ref.startsWith(COMPONENTS) && renamed.has(id) ? `${COMPONENTS}${id}Output` : ref;
  }
}

function named(schemas: Record<string, z.ZodType>) {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  return registry;
}

/**
 * Descriptions and examples set with `.meta()` / `.describe()` live in zod's global registry;
 * a conversion against our own registry (for the ids) would drop them.
 */
function withGlobalMeta(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const meta = z.globalRegistry.get(context.zodSchema as z.ZodType);
  if (meta?.description !== undefined) context.jsonSchema.description ??= meta.description;
  if (meta?.examples !== undefined) context.jsonSchema.examples ??= meta.examples;
}

function convertRegistry(registry: z.core.$ZodRegistry<{ id: string }>, io: Io): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `${COMPONENTS}${id}`,
    override: withGlobalMeta,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, clean(schema)]));
}

/** Components carry no `$schema` or `$id`: the document's dialect and its location name them. */
function clean(schema: JsonSchema): JsonSchema {
  const { $schema, $id, ...rest } = schema;
  void $schema;
  void $id;
  return rest;
}

/**
 * The output components that cannot share the input one's name: those that differ, then (until
 * nothing changes) those that refer to a renamed one.
 */
function renamedOutputs(
  inputs: Record<string, JsonSchema>,
  outputs: Record<string, JsonSchema>,
): Set<string> {
  const shared = Object.keys(outputs).filter((id) => id in inputs);
  const renamed = new Set(shared.filter((id) => !isDeepStrictEqual(inputs[id], outputs[id])));
  for (let grew = true; grew;) {
    grew = false;
    for (const id of shared) {
      if (!renamed.has(id) && refsOf(outputs[id]).some((ref) => renamed.has(ref.slice(COMPONENTS.length)))) {
        renamed.add(id);
        grew = true;
      }
    }
  }
  return renamed;
}

function refsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsOf(inner),
  );
}

function rewriteRefs<T>(value: T, rewrite: (ref: string) => string): T {
  if (Array.isArray(value)) return value.map((item: unknown) => rewriteRefs(item, rewrite)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? rewrite(inner) : rewriteRefs(inner, rewrite),
    ]),
  ) as T;
}
