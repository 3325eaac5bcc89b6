import Router from '@koa/router';
import { buildOpenApiDocument } from './document';

let cached: string | undefined;

/** The document as JSON, built on first use: it depends on the code only, never on a request. */
export function openApiJson(): string {
  cached ??= JSON.stringify(buildOpenApiDocument());
  return cached;
}

/**
 * `GET /api/v1/openapi.json`: the OpenAPI 3.1 document of the REST API, generated from the zod
 * schemas the routes validate with. It needs no API key, so mount it before the keyed router.
 */
export function openapiRoutes(): Router {
  const router = new Router();
  router.get('/api/v1/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiJson();
  });
  return router;
}
