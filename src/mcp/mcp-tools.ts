import type { DataSource } from 'typeorm';
import type { RecordsService } from '../records/records.service';
import type { McpTool } from './mcp-tool';
import { webhookTools, type WebhookToolDeps } from './tools/manage-webhooks.tool';
import { recordTools } from './tools/records.tools';

/** Every tool of the MCP endpoint, in the order `tools/list` shows them. */
export const mcpTools = (
  deps: WebhookToolDeps & { dataSource: DataSource; records: RecordsService },
): McpTool[] => [...recordTools(deps), ...webhookTools(deps)];

/** The header a client sends to see only the tools that change nothing. */
export const READ_ONLY_HEADER = 'x-mcp-readonly';

/**
 * The tools one connection lists and may call. By default, the record tools and manage_webhooks: what
 * an assistant loads into every chat stays small (issue 27). With `X-MCP-Readonly: true`, only tools
 * that change nothing: manage_webhooks' reads as tools of their own, which clients may run without
 * asking since annotations are per tool, and no write at all, whatever the key's role allows.
 */
export function toolsForConnection(tools: McpTool[], readOnly: boolean): McpTool[] {
  return readOnly
    ? tools.filter((tool) => tool.annotations.readOnlyHint === true)
    : tools.filter((tool) => !tool.readOnlyConnectionsOnly);
}

/** `X-MCP-Readonly`: absent, `true` or `false` (any case); undefined for any other value. */
export function parseReadOnlyHeader(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return false;
  const normalised = value.trim().toLowerCase();
  if (normalised === 'true') return true;
  if (normalised === 'false') return false;
  return undefined;
}

/**
 * Why a request body is refused as a JSON-RPC batch (an array of messages), or undefined. The SDK's
 * transport takes batches of up to 100 and runs their messages at once, so one HTTP request would
 * count once against the request quotas and take one place in the client's line, while it writes
 * a hundred times (issue 34, item 1). MCP's 2025-06-18 revision removed batching from Streamable
 * HTTP, and the SDK's clients never send one, so a batch is refused whole rather than counted
 * message by message (docs/api.md, "MCP").
 */
export function batchRefusal(body: unknown): string | undefined {
  return Array.isArray(body)
    ? 'JSON-RPC batches are not accepted: send one message per request (MCP 2025-06-18 removed batching).'
    : undefined;
}
