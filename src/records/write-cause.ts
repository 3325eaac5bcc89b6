import type { Context } from 'koa';
import type { ApiKeyActor } from '../api-keys/api-key-auth';
import type { WriteCause } from './records.service';

/** The cause of a write made through this request: an API key (REST), or the web app. */
export function restCause(ctx: Context): WriteCause {
  const actor = ctx.state.actor as ApiKeyActor | undefined;
  return actor?.apiKeyId ? { kind: 'api', apiKeyId: actor.apiKeyId } : { kind: 'web' };
}
