import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: any;
  _meta?: Record<string, any>;
}

/** The official MCP client SDK, connected to the live endpoint with an API key. */
export async function connectMcp(
  baseUrl: string,
  key: string,
): Promise<{ client: Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> }> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/v1/mcp`), {
      requestInit: { headers: { 'x-api-key': key } },
    }),
  );
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as unknown as ToolResult,
  };
}
