import Router from '@koa/router';
import type { ApiKeyActor } from './api-key-auth';
import { actorOf } from '../identity/actor';
import type { Me } from './me-view';

/**
 * `GET /api/v1/me`: who a key acts as. Lets a client check its key and see the permissions it
 * has right now (the owner's current role in the key's workspace).
 */
export function meRoutes(): Router {
  const router = new Router();
  router.get('/me', (ctx) => {
    const actor = actorOf(ctx) as ApiKeyActor;
    ctx.body = {
      user: { id: actor.user.id, email: actor.user.email, name: actor.user.name },
      workspace: { id: actor.workspace.id, name: actor.workspace.name },
      role: { id: actor.role.id, name: actor.role.name },
      permissions: actor.permissions,
      apiKey: { id: actor.apiKeyId },
    } satisfies Me;
  });
  return router;
}
