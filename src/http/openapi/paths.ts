import { providerActivitySchema } from '../../messaging/provider-activity';
import { body, FIELD_CODES, uuidParam, type OperationSpec } from './operation';
import { MODEL_OPERATIONS, RECORD_OPERATIONS } from './records.paths';
import {
  jsonRpcRequestSchema,
  jsonRpcResponseSchema,
  ingestResultSchema,
  mcpRefusalSchema,
  meSchema,
  openApiDocumentSchema,
  refusalSchema,
} from './responses';
import { WEBHOOK_OPERATIONS } from './webhooks.paths';

export { createWebhookExample } from './webhooks.paths';

/** Every operation under /api/v1 (docs/api.md), in the order the document lists them. */
export const OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI document',
    tag: 'Meta',
    public: true,
    success: {
      status: 200,
      description: 'The OpenAPI 3.1 document of the REST API.',
      schema: openApiDocumentSchema,
    },
  },
  {
    method: 'get',
    path: '/api/v1/me',
    operationId: 'getMe',
    summary: 'Who the key acts as, right now',
    description: "The key's owner, workspace, current role and the permissions it has on API & Webhooks.",
    tag: 'Identity',
    success: { status: 200, description: 'The key and whom it acts as.', schema: meSchema },
  },
  ...MODEL_OPERATIONS,
  ...RECORD_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  {
    method: 'post',
    path: '/api/v1/messaging/inbound/{accountId}',
    operationId: 'ingestProviderActivity',
    summary: 'Inbound activity of a messaging provider',
    description:
      'For messaging providers, not API clients: authenticated by `X-Provider-Signature`, the lowercase hex HMAC-SHA256 of the raw body with the connected account’s signing secret (no API key). A messaging event is stored, and later delivered, only where messaging is enabled and a webhook subscribes to it; a provider `eventId` sent again stores nothing new. Answers at once.',
    tag: 'Messaging',
    public: true,
    pathParams: { accountId: uuidParam('connected account') },
    body: body(providerActivitySchema, {
      eventId: 'evt_123',
      type: 'message.received',
      entityId: 'ent_1',
      threadId: 'thr_1',
    }),
    success: {
      status: 202,
      description: 'Accepted: whether an event was stored.',
      schema: ingestResultSchema,
    },
    responses: {
      400: {
        description: 'validation: not a provider activity.',
        schema: refusalSchema,
        customCodes: FIELD_CODES,
      },
      401: {
        description:
          'authentication: customCodes: `providerSignatureInvalid` (a bad signature, or an unknown account).',
        schema: refusalSchema,
        customCodes: ['providerSignatureInvalid'],
      },
    },
  },
  {
    method: 'post',
    path: '/api/v1/mcp',
    operationId: 'mcp',
    summary: 'MCP endpoint (JSON-RPC 2.0)',
    description:
      'Model Context Protocol over Streamable HTTP, stateless, JSON responses. Send `Content-Type: application/json` and `Accept: application/json, text/event-stream`. Tools: get_record_model, search_records, read_record, create_record, update_record, manage_webhooks (docs/api.md). A tool refusal is a result with `isError: true` and `_meta.failure = { kind, issues }` as in the REST refusal body. GET and DELETE answer 405.',
    tag: 'MCP',
    body: body(jsonRpcRequestSchema, { jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    success: { status: 200, description: 'The JSON-RPC response.', schema: jsonRpcResponseSchema },
    responses: {
      202: { description: 'A notification or response was accepted (no body).' },
      400: { description: 'Not a valid JSON-RPC message.', schema: jsonRpcResponseSchema },
      401: {
        description: '`invalid_api_key`: the key is missing, unknown, deleted or expired.',
        schema: mcpRefusalSchema,
      },
      403: {
        description:
          "`plan_required`, `member_inactive` or `insufficient_permissions` (the owner's role lacks Read access All on API & Webhooks).",
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
