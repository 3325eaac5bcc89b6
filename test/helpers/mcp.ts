import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';

type SchemaError = {
  instancePath: string;
  keyword: string;
  message?: string;
  params: { additionalProperty?: string; missingProperty?: string };
};

/**
 * The SDK's own output-schema validator, with a failure that names the fields: the SDK's text of a
 * mismatch lists every branch of every nullable union and never names an extra property, so a
 * field left out of a view schema read as 5,000 characters. Now: "/data/0/note: not in the output
 * schema" or "/note: missing".
 */
function outputValidator(): AjvJsonSchemaValidator {
  const validator = new AjvJsonSchemaValidator();
  // The SDK words the failure with its Ajv instance's errorsText (kept private, hence the cast).
  const ajv = (validator as unknown as { _ajv: { errorsText: (errors?: SchemaError[] | null) => string } })
    ._ajv;
  ajv.errorsText = (errors) => namedMismatches(errors ?? []);
  return validator;
}

function namedMismatches(errors: SchemaError[]): string {
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
    { jsonSchemaValidator: outputValidator() },
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
