import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  createFieldBody,
  discoverBody,
  readTypeBody,
  typeBody,
  updateFieldBody,
} from '../../record-model/model.schemas';
import { recordFilterSchema, recordQuerySchema } from '../../records/record-query';
import { recordWriteBody } from '../../records/records.schemas';
import { providerActivitySchema } from '../../messaging/provider-activity';
import { recordSourceSchema, recordTriggerSchema } from '../../webhooks/record-sources';
import { createWebhookBody, updateWebhookBody } from '../../webhooks/webhooks.schemas';
import {
  deliveryPageSchema,
  deliveryViewSchema,
  eventDetailsSchema,
  ingestResultSchema,
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
  mcpRefusalSchema,
  meSchema,
  modelDiscoverySchema,
  modelTypeReadSchema,
  openApiDocumentSchema,
  recordFieldResourceSchema,
  recordPageSchema,
  recordTypeResourceSchema,
  recordViewSchema,
  refusalSchema,
  relatedRecordSchema,
  valueStateSchema,
  webhookPageSchema,
  webhookViewSchema,
} from './responses';

export type JsonSchema = { [keyword: string]: unknown };
export type Io = 'input' | 'output';

const COMPONENTS = '#/components/schemas/';

/** Named in both directions: webhooks are written and read with the same record settings. */
const SHARED = {
  RecordTrigger: recordTriggerSchema,
  RecordSource: recordSourceSchema,
  RecordQuery: recordQuerySchema,
  RecordFilter: recordFilterSchema,
};

/** Request bodies: the schemas the routes validate with, read as what they accept. */
const REQUESTS = {
  ...SHARED,
  DiscoverModelBody: discoverBody,
  ReadModelTypeBody: readTypeBody,
  RecordTypeBody: typeBody,
  CreateFieldBody: createFieldBody,
  UpdateFieldBody: updateFieldBody,
  RecordWriteBody: recordWriteBody,
  CreateWebhookBody: createWebhookBody,
  UpdateWebhookBody: updateWebhookBody,
  JsonRpcRequest: jsonRpcRequestSchema,
  ProviderActivity: providerActivitySchema,
};

/** Response bodies, read as what they produce. */
const RESPONSES = {
  ...SHARED,
  Me: meSchema,
  ModelDiscovery: modelDiscoverySchema,
  ModelTypeRead: modelTypeReadSchema,
  RecordTypeResource: recordTypeResourceSchema,
  RecordFieldResource: recordFieldResourceSchema,
  ValueState: valueStateSchema,
  RelatedRecord: relatedRecordSchema,
  Record: recordViewSchema,
  RecordPage: recordPageSchema,
  Webhook: webhookViewSchema,
  WebhookPage: webhookPageSchema,
  Delivery: deliveryViewSchema,
  DeliveryPage: deliveryPageSchema,
  EventDetails: eventDetailsSchema,
  Refusal: refusalSchema,
  McpRefusal: mcpRefusalSchema,
  JsonRpcResponse: jsonRpcResponseSchema,
  IngestResult: ingestResultSchema,
  OpenApiDocument: openApiDocumentSchema,
};

/**
 * `components.schemas` of the document, converted by `z.toJSONSchema` from the zod schemas above,
 * and the JSON Schema of any other zod schema with those components as `$ref`s. A name whose
 * input and output forms differ (a default, a transform) gets a second component `<name>Output`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly registries = { input: named(REQUESTS), output: named(RESPONSES) };
  /** Registered id → component name, per direction. */
  private readonly names: Record<Io, Map<string, string>> = { input: new Map(), output: new Map() };

  constructor() {
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
    if (!name) throw new Error(`openapi: no ${io} component for this schema; add it to components.ts`);
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
