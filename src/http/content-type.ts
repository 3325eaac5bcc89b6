import type { Middleware } from 'koa';
import { ValidationError } from '../shared/app-error';

/** The media types the body parser reads as JSON (its defaults); anything else is never parsed. */
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/reports+json',
  'application/scim+json',
];
const WRITES = new Set(['POST', 'PATCH', 'PUT']);

/**
 * Whether a request must be refused for its Content-Type: a write that carries a body must send
 * it as JSON. Without this the body parser skips the body, and the write runs as if nothing was
 * sent (a PATCH answers 200 having changed nothing; a POST says "url required").
 */
export function refusesContentType(
  method: string,
  carriesBody: boolean,
  contentType: string | undefined,
): boolean {
  if (!WRITES.has(method.toUpperCase()) || !carriesBody) return false;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return !JSON_TYPES.includes(mediaType);
}

/**
 * Refuses non-JSON writes under `/api/v1` and `/app/api` with 400 validation `unsupportedMediaType`
 * (the spec's status table has one status per kind and no 415). MCP is left to its transport,
 * which answers in JSON-RPC.
 */
export function requireJsonWrites(): Middleware {
  return async (ctx, next) => {
    const api = ctx.path.startsWith('/api/v1/') || ctx.path.startsWith('/app/api/');
    if (api && ctx.path !== '/api/v1/mcp') {
      const length = ctx.request.length;
      const carriesBody = (length !== undefined && length > 0) || ctx.get('transfer-encoding') !== '';
      if (refusesContentType(ctx.method, carriesBody, ctx.get('content-type') || undefined)) {
        throw ValidationError.of(
          'The request body must be JSON (Content-Type: application/json).',
          'unsupportedMediaType',
        );
      }
    }
    await next();
  };
}
