import { z } from 'zod';
import type { ApiKeyRefusal } from '../api-keys/api-key-auth';
import type { OAuthRefusal } from '../oauth/oauth-token-auth';
import type { ComponentSchemas } from '../http/openapi/components';
import { answer, body, type OperationSpec } from '../http/openapi/operation';
import { refusalSchema, type Check, type Same } from '../http/view-schemas';

export const MCP_REFUSALS = [
  'invalid_api_key',
  'invalid_token',
  'plan_required',
  'member_inactive',
  'insufficient_permissions',
] as const;

export const mcpRefusalSchema = z
  .object({ error: z.enum(MCP_REFUSALS), error_description: z.string() })
  .meta({
    description: 'The MCP endpoint refuses a key or an OAuth token with this body instead of the REST one.',
  });

// ---- JSON-RPC 2.0 ---------------------------------------------------------------------------

const jsonRpcId = z.union([z.string(), z.number()]);

export const jsonRpcRequestSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId.optional().meta({ description: 'Absent for notifications (answered 202).' }),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ description: 'A JSON-RPC 2.0 message, for example `tools/list` or `tools/call`.' });

export const jsonRpcResponseSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: jsonRpcId.nullable(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.object({ code: z.int(), message: z.string(), data: z.unknown().optional() }).optional(),
});

export const MCP_OPERATIONS: OperationSpec[] = [
  {
    method: 'post',
    path: '/api/v1/mcp',
    operationId: 'mcp',
    summary: 'MCP endpoint (JSON-RPC 2.0)',
    description:
      'Model Context Protocol over Streamable HTTP, stateless, JSON responses. Send `Content-Type: application/json` and `Accept: application/json, text/event-stream`. Tools: get_record_model, search_records, read_record, create_record, update_record, manage_webhooks (docs/api.md). With `X-MCP-Readonly: true` (or an OAuth app connected to read only), only the tools that change nothing: get_record_model, search_records, read_record, list_webhooks, get_webhook, list_deliveries, get_delivery, get_resend_batch. Authenticate with `x-api-key`, or with an OAuth 2.1 access token (`Authorization: Bearer`) for chat assistants: the protected resource metadata is at `/.well-known/oauth-protected-resource/api/v1/mcp`, the authorization server at `/oauth` (docs/api.md, "OAuth for chat assistants"). One JSON-RPC message per request: a batch is refused (400). A tool refusal is a result with `isError: true` and `_meta.failure = { kind, issues }` as in the REST refusal body. GET and DELETE answer 405.',
    tag: 'MCP',
    body: body(jsonRpcRequestSchema, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    success: answer(200, 'The JSON-RPC response.', jsonRpcResponseSchema, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        tools: [
          {
            name: 'get_record_model',
            description:
              'The record types you can read, their fields with stable ids, and the schema revision.',
            inputSchema: { type: 'object', properties: {} },
          },
        ],
      },
    }),
    responses: {
      202: { description: 'A notification or response was accepted (no body).' },
      400: {
        description:
          'Not a valid JSON-RPC message, a JSON-RPC batch (an array: one message per request), or `X-MCP-Readonly` is neither true nor false.',
        schema: jsonRpcResponseSchema,
      },
      401: {
        description:
          '`invalid_api_key`: no key and no token, or the key is unknown, deleted or expired; `invalid_token`: the OAuth access token is unknown, expired, revoked or for another resource. `WWW-Authenticate: Bearer resource_metadata="…"` (with `error="invalid_token"` for a refused token) names the protected resource metadata.',
        schema: mcpRefusalSchema,
      },
      403: {
        description:
          "`plan_required`, `member_inactive` or `insufficient_permissions` (the owner's role lacks Read access All on API & Webhooks), for a key or an OAuth token alike.",
        schema: mcpRefusalSchema,
      },
      406: {
        description: 'Without `Accept: application/json, text/event-stream`.',
        schema: jsonRpcResponseSchema,
      },
      415: { description: 'The body is not `application/json`.', schema: jsonRpcResponseSchema },
      429: { description: 'The service is busy.', schema: refusalSchema, retryAfter: true },
    },
  },
];

export const MCP_COMPONENTS: ComponentSchemas = {
  requests: { JsonRpcRequest: jsonRpcRequestSchema },
  responses: { McpRefusal: mcpRefusalSchema, JsonRpcResponse: jsonRpcResponseSchema },
};

/** `ApiKeyRefusedError.mcpError` (the three authentication reasons collapse to one) or an OAuth refusal. */
type McpRefusal =
  Exclude<ApiKeyRefusal, 'missing' | 'invalid' | 'expired'> | 'invalid_api_key' | OAuthRefusal;
export type McpRefusalChecks = [Check<Same<z.output<typeof mcpRefusalSchema>['error'], McpRefusal>>];
