import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

/**
 * The client's output-schema validator (the SDK's public `jsonSchemaValidator` option), configured
 * as the SDK's default Ajv one, with a failure that names the fields: the SDK's text of a mismatch
 * lists every branch of every nullable union and never names an extra property, so a field left out
 * of a view schema read as 5,000 characters. Here: "/data/0/note: not in the output schema" or
 * "/note: missing".
 */
class NamingOutputValidator implements jsonSchemaValidator {
  private readonly ajv = new Ajv({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
  });

  constructor() {
    addFormats(this.ajv);
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    // A schema with an $id compiles once: Ajv refuses a second schema under the same id.
    const cached = typeof schema.$id === 'string' ? this.ajv.getSchema(schema.$id) : undefined;
    const validate = cached ?? this.ajv.compile(schema);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: namedMismatches(validate.errors ?? []) };
  }
}

function namedMismatches(errors: ErrorObject[]): string {
  const named = errors.flatMap((error) =>
    error.params.additionalProperty !== undefined
      ? [`${error.instancePath}/${error.params.additionalProperty}: not in the output schema`]
      : error.params.missingProperty !== undefined
        ? [`${error.instancePath}/${error.params.missingProperty}: missing`]
        : [],
  );
  const lines = named.length
    ? named
    : errors.map((error) => `${error.instancePath || '/'}: ${error.message ?? error.keyword}`);
  return [...new Set(lines)].slice(0, 10).join('; ');
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: any;
  _meta?: Record<string, any>;
}

/**
 * The official MCP client SDK, connected to the live endpoint with an API key; `readOnly` sends
 * `X-MCP-Readonly: true` (only the tools that change nothing: list_webhooks, get_delivery, …).
 */
export async function connectMcp(
  baseUrl: string,
  key: string,
  options: { readOnly?: boolean } = {},
): Promise<{ client: Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> }> {
  const client = new Client(
    { name: 'test-client', version: '1.0.0' },
    { jsonSchemaValidator: new NamingOutputValidator() },
  );
  const headers: Record<string, string> = { 'x-api-key': key };
  if (options.readOnly) headers['x-mcp-readonly'] = 'true';
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), { requestInit: { headers } }),
  );
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as unknown as ToolResult,
  };
}
