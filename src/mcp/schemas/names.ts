import { z } from 'zod';
import { DELIVERY_COMPONENTS } from '../../deliveries/log/deliveries.openapi';
import { RESEND_BATCH_COMPONENTS } from '../../deliveries/resend/resend-batches.openapi';
import type { ComponentSchemas } from '../../http/openapi/components';
import { MODEL_COMPONENTS } from '../../record-model/model.openapi';
import { RECORD_COMPONENTS } from '../../records/records.openapi';
import { WEBHOOK_COMPONENTS } from '../../webhooks/webhooks.openapi';
import type { JsonSchema } from './json-schema';
import { NAME_KEY } from './subschemas';

/**
 * The names of shared definitions in an outputSchema: those of the OpenAPI components, so both
 * documents call a webhook `Webhook` and a delivery `Delivery`.
 */
const NAMES = new Map<z.ZodType, string>(
  [WEBHOOK_COMPONENTS, DELIVERY_COMPONENTS, RESEND_BATCH_COMPONENTS, RECORD_COMPONENTS, MODEL_COMPONENTS]
    .flatMap((components: ComponentSchemas) => [
      ...Object.entries(components.shared ?? {}),
      ...Object.entries(components.responses ?? {}),
    ])
    .map(([name, schema]) => [schema, name]),
);

/**
 * What an assistant is told about an input inside a schema REST shares (a record query's `typeId`,
 * a filter's `op`): in MCP's inputSchemas only, as the tools' own words (get_record_model, …).
 */
const INPUT_DESCRIPTIONS = new WeakMap<z.ZodType, string>();

/** Describes `schema` wherever it is an input of an MCP tool (not in REST's documents). */
export function describeInput(schema: z.ZodType, description: string): void {
  INPUT_DESCRIPTIONS.set(schema, description);
}

/** The `override` of the tools' JSON Schema conversion: names, and the inputs' descriptions. */
export const mcpOverride =
  (io: 'input' | 'output') =>
  (context: { zodSchema: unknown; jsonSchema: { [keyword: string]: unknown } }): void => {
    const schema = context.zodSchema as z.ZodType;
    const json: JsonSchema = context.jsonSchema;
    const description = io === 'input' ? INPUT_DESCRIPTIONS.get(schema) : undefined;
    if (description !== undefined) json.description ??= description;
    const name = io === 'output' ? NAMES.get(schema) : undefined;
    if (name !== undefined) json[NAME_KEY] = name;
  };
