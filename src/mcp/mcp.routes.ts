import Router from '@koa/router';
import type { Context } from 'koa';
import type { DataSource } from 'typeorm';
import { ApiKeyRefusedError, type ApiKeyAuthenticator } from '../api-keys/api-key-auth';
import { OAuthTokenRefusedError, bearerToken, type OAuthTokenAuthenticator } from '../oauth/oauth-token-auth';
import { wwwAuthenticate } from '../oauth/protected-resource';
import type { McpActor, McpTool } from './mcp-tool';
import { batchRefusal, parseReadOnlyHeader, READ_ONLY_HEADER, toolsForConnection } from './mcp-tools';
import type { FairShare } from '../http/quotas/fair-share';
import type { QuotaVerdict } from '../http/quotas/request-quotas';

type McpServerSide = typeof import('./mcp-server') &
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
let serverSide: McpServerSide | undefined;

/**
 * The MCP SDK's server and transport, loaded at the first MCP request rather than with the app:
 * with their JSON Schema validator they cost about 0.15 s of CPU to load (CONTRIBUTING.md, "Where
 * a file's CPU goes"), which a process or a test that serves no MCP request need not spend.
 */
function mcpServerSide(): McpServerSide {
  /* eslint-disable @typescript-eslint/no-require-imports -- a deferred load, see above */
  return (serverSide ??= {
    ...(require('./mcp-server') as typeof import('./mcp-server')),
    ...(require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')),
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * `POST /api/v1/mcp`: MCP over Streamable HTTP, stateless, JSON responses. The caller is checked
 * before the transport: an `x-api-key`, or else an OAuth access token (`Authorization: Bearer`).
 * A refusal answers `{ error, error_description }` with the spec's status (403
 * `insufficient_permissions`, `plan_required`, `member_inactive`; 401 `invalid_api_key` or
 * `invalid_token`); every 401 names the protected resource metadata in `WWW-Authenticate`.
 * The transport itself answers 406 without `Accept: application/json, text/event-stream`.
 * `X-MCP-Readonly: true` gives a connection only the tools that change nothing (mcp-tools.ts), as
 * does an OAuth app connected to read only; a value other than true or false answers 400 with a
 * JSON-RPC error (-32600), as the transport answers a request it cannot take. So does a JSON-RPC
 * batch (`batchRefusal`): one request is one message. A batch is refused as any request is served,
 * after the caller, its quota and its place in the workspace's line: it spends one unit, and once
 * the quota is spent it is refused with 429 and held like any other, so a flood of batches cannot
 * spin the process faster than the caller's quota allows.
 */
export function mcpRoutes(deps: {
  authenticator: ApiKeyAuthenticator;
  oauth: OAuthTokenAuthenticator;
  publicUrl: () => string;
  tools: McpTool[];
  dataSource: DataSource;
  /** Each workspace's requests to its share of the process. */
  share?: FairShare;
  /** Counts the request against its credential's and workspace's quotas. */
  quota?: (actor: McpActor) => Promise<QuotaVerdict>;
}): Router {
  const router = new Router();
  const toolsets = {
    readOnly: toolsForConnection(deps.tools, true),
    default: toolsForConnection(deps.tools, false),
  };

  const authenticate = async (ctx: Context): Promise<McpActor> => {
    const key = ctx.get('x-api-key') || undefined;
    const token = key ? undefined : bearerToken(ctx.get('authorization'));
    // ctx.ip: the peer, or X-Forwarded-For's entry of the trusted proxy only with TRUST_PROXY.
    const from = { ip: ctx.ip };
    return token ? deps.oauth.authenticate(token, from) : deps.authenticator.authenticate(key, from);
  };

  router.post('/api/v1/mcp', async (ctx) => {
    const readOnlyAsked = parseReadOnlyHeader(ctx.get(READ_ONLY_HEADER) || undefined);
    if (readOnlyAsked === undefined) return refuseRequest(ctx, 'X-MCP-Readonly must be true or false.');
    let actor;
    try {
      actor = await authenticate(ctx);
    } catch (error) {
      const refusal = mcpRefusal(error);
      if (!refusal) throw error;
      ctx.status = refusal.status;
      if (refusal.status === 401) {
        ctx.set('WWW-Authenticate', wwwAuthenticate(deps.publicUrl(), refusal.error === 'invalid_token'));
      }
      ctx.body = { error: refusal.error, error_description: refusal.description };
      return;
    }
    // An app connected to read only stays so, whatever header it sends.
    const readOnly = readOnlyAsked || ('readOnlyConnection' in actor && actor.readOnlyConnection);
    const verdict = deps.quota ? await deps.quota(actor) : undefined;
    if (verdict) ctx.set(verdict.headers);
    const batch = batchRefusal(ctx.request.body);
    // Over quota: a tool call answers with the refusal in `_meta.failure`, as any tool refusal does;
    // any other method, and a batch, with 429 itself.
    if (
      verdict?.refusal &&
      (batch || (ctx.request.body as { method?: unknown } | undefined)?.method !== 'tools/call')
    )
      throw verdict.refusal;
    const serve = async () => {
      if (batch) return refuseRequest(ctx, batch);
      const { createMcpServer, StreamableHTTPServerTransport } = mcpServerSide();
      const server = createMcpServer(actor, readOnly ? toolsets.readOnly : toolsets.default, {
        dataSource: deps.dataSource,
        log: ctx.state.log,
        requestId: ctx.state.requestId,
        refusal: verdict?.refusal,
        readOnly,
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
    };
    await (deps.share ? deps.share.run(actor.workspace.id, serve) : serve());
  });

  // Stateless: no server-sent event stream to open and no session to end.
  router.all('/api/v1/mcp', (ctx) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null };
  });

  return router;
}

/**
 * A request the endpoint does not take, answered as the transport answers one (400, JSON-RPC
 * -32600 Invalid Request, no id): nothing of it runs.
 */
function refuseRequest(ctx: Context, message: string): void {
  ctx.status = 400;
  ctx.body = { jsonrpc: '2.0', error: { code: -32600, message }, id: null };
}

/** A refused key or token as the MCP endpoint answers it; undefined for any other error. */
function mcpRefusal(error: unknown): { status: number; error: string; description: string } | undefined {
  if (error instanceof ApiKeyRefusedError) {
    return { status: error.status, error: error.mcpError, description: error.message };
  }
  if (error instanceof OAuthTokenRefusedError) {
    return { status: error.status, error: error.reason, description: error.message };
  }
  return undefined;
}
