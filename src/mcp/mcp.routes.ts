import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { DataSource } from 'typeorm';
import { ApiKeyRefusedError, type ApiKeyAuthenticator } from '../api-keys/api-key-auth';
import { createMcpServer } from './mcp-server';
import type { McpTool } from './mcp-tool';

/**
 * `POST /api/v1/mcp`: MCP over Streamable HTTP, stateless, JSON responses. The key is checked
 * before the transport; a refusal answers `{ error, error_description }` with the spec's status
 * (403 `insufficient_permissions`, `plan_required`, `member_inactive`; 401 `invalid_api_key`).
 * The transport itself answers 406 without `Accept: application/json, text/event-stream`.
 */
export function mcpRoutes(deps: {
  authenticator: ApiKeyAuthenticator;
  tools: McpTool[];
  dataSource: DataSource;
}): Router {
  const router = new Router();

  router.post('/api/v1/mcp', async (ctx) => {
    let actor;
    try {
      actor = await deps.authenticator.authenticate(ctx.get('x-api-key') || undefined);
    } catch (error) {
      if (!(error instanceof ApiKeyRefusedError)) throw error;
      ctx.status = error.status;
      ctx.body = { error: error.mcpError, error_description: error.message };
      return;
    }
    const server = createMcpServer(actor, deps.tools, {
      dataSource: deps.dataSource,
      log: ctx.state.log,
      requestId: ctx.state.requestId,
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });

  // Stateless: no server-sent event stream to open and no session to end.
  router.all('/api/v1/mcp', (ctx) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
  });

  return router;
}
