import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiKeyActor } from '../api-keys/api-key-auth';

export const MCP_SERVER_INFO = { name: 'crm-webhooks', version: '1.0.0' };

/**
 * A fresh MCP server for one request, acting as `actor`. Servers are never reused across
 * requests (tech-notes.md: reuse leaked data between clients). Feature tools register here.
 */
export function createMcpServer(_actor: ApiKeyActor): McpServer {
  return new McpServer(MCP_SERVER_INFO, {
    instructions:
      'CRM webhooks: manage the webhooks of your workspace and their deliveries. ' +
      'You act with the permissions of the API key owner in the key workspace.',
  });
}
