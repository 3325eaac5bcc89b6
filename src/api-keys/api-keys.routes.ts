import Router from '@koa/router';
import type { Config } from '../config';
import { actorOf } from '../identity/actor';
import { parse, parseId } from '../http/validate';
import { createApiKeyBody, createQuickKeyBody } from './api-keys.schemas';
import { apiKeyNotFound, type ApiKeysService } from './api-keys.service';
import { quickConnections } from './quick-connections';

/** Settings → API keys. Keys have no REST or MCP routes: only these web-app routes. */
export function apiKeysRoutes(deps: { apiKeys: ApiKeysService; config: Config }): Router {
  const { apiKeys, config } = deps;
  const router = new Router();

  router.get('/quick-connections', (ctx) => {
    ctx.body = {
      data: quickConnections({
        mcpUrl: `${config.PUBLIC_URL}/api/v1/mcp`,
        restUrl: `${config.PUBLIC_URL}/api/v1`,
      }),
    };
  });

  router.get('/api-keys', async (ctx) => {
    ctx.body = { data: await apiKeys.listOwn(actorOf(ctx)) };
  });

  router.post('/api-keys', async (ctx) => {
    const body = parse(createApiKeyBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await apiKeys.createStandard(actorOf(ctx), body);
  });

  router.post('/api-keys/quick', async (ctx) => {
    const { clientKind } = parse(createQuickKeyBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = await apiKeys.createQuick(actorOf(ctx), clientKind);
  });

  router.delete('/api-keys/:id', async (ctx) => {
    await apiKeys.deleteOwn(actorOf(ctx), parseId(ctx.params.id, apiKeyNotFound));
    ctx.status = 204;
  });

  return router;
}
