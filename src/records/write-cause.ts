import type { Context } from 'koa';
import type { ApiKeyActor } from '../api-keys/api-key-auth';

/** The cause of a write made through this request: an API key (REST), or the web app. */
export function restCause(ctx: Context): WriteCause {
  const actor = ctx.state.actor as ApiKeyActor | undefined;
  return actor?.apiKeyId ? { kind: 'api', apiKeyId: actor.apiKeyId } : { kind: 'web' };
}

/** What caused a write (the event's `data.cause`). */
export type WriteCause =
  | { kind: 'api'; apiKeyId: string }
  | { kind: 'mcp'; apiKeyId: string }
  | { kind: 'mcp'; oauthConnectionId: string }
  | { kind: 'web' }
  | { kind: 'retention' };
