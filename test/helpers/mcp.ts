import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

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
  const client = new Client({ name: 'test-client', version: '1.0.0' });
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
