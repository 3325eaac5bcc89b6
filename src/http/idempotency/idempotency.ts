import { createHash } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { DataSource } from 'typeorm';
import { ValidationError } from '../../shared/app-error';
import { controlCharacterIssues } from '../../shared/control-characters';
import { idempotent } from '../../db/idempotent-write';

export const IDEMPOTENCY_KEY_MAX = 255;

/**
 * REST writes with an idempotency key (the `Idempotency-Key` header or an `idempotencyKey` body
 * field): the same key from the same key owner, in the same workspace, for the same method and
 * route, within 24 hours answers the first answer again (docs/api.md#idempotent-writes:
 * "Resend a write with the same idempotencyKey"). A key reused for
 * another request is refused. The answer commits with the write (src/db/idempotent-write.ts).
 * Unexpected errors (500) and busy refusals (429) keep no answer.
 */
export function idempotency(dataSource: DataSource): Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PATCH', 'PUT', 'DELETE'].includes(ctx.method) || !ctx.state.actor) return next();
    const body = ctx.request.body as Record<string, unknown> | undefined;
    const fromBody =
      body && typeof body === 'object' && !Array.isArray(body) ? body.idempotencyKey : undefined;
    if (fromBody !== undefined) delete body!.idempotencyKey;
    const key = ctx.get('idempotency-key') || fromBody;
    if (key === undefined || key === '') return next();
    if (typeof key !== 'string' || key.length > IDEMPOTENCY_KEY_MAX) {
      throw ValidationError.of(
        `The idempotency key must be a string of at most ${IDEMPOTENCY_KEY_MAX} characters.`,
        'idempotencyKeyInvalid',
        ['idempotencyKey'],
      );
    }
    // The key is taken out of the body before the route's schema (and its control-character check)
    // sees it, so it is held to that rule here: a NUL would reach PostgreSQL (issue 34, item 7).
    const controls = controlCharacterIssues({ idempotencyKey: key });
    if (controls.length > 0) throw new ValidationError(controls);
    const actor = ctx.state.actor as { user: { id: string }; workspace: { id: string } };
    const { answer, replayed } = await idempotent(
      dataSource,
      {
        workspaceId: actor.workspace.id,
        userId: actor.user.id,
        scope: `${ctx.method} ${routeOf(ctx)}`,
        key,
        fingerprint: createHash('sha256')
          .update(`${ctx.method} ${ctx.path}\n${JSON.stringify(body ?? null)}`)
          .digest('hex'),
      },
      {
        // Routes set a success status other than 200 before calling the service (201), or answer
        // 204 when it returns nothing; the body is what the service returned.
        answerOf: (result) => ({
          status:
            ctx.status === 404 && ctx.body === undefined ? (result === undefined ? 204 : 200) : ctx.status,
          body: result ?? null,
        }),
        answerOfRefusal: (error) => ({ status: error.status, body: error.toBody() }),
        run: async () => {
          await next();
          return { status: ctx.status, body: ctx.body ?? null };
        },
      },
    );
    if (!replayed) return;
    ctx.status = answer.status;
    ctx.body = answer.body ?? '';
    ctx.set('Idempotent-Replayed', 'true');
  };
}

/** The matched route's pattern (`/api/v1/webhooks/:id`), so one key means one kind of write. */
function routeOf(ctx: Context): string {
  const matched = (ctx as { matched?: { path: string; methods: string[] }[] }).matched ?? [];
  return matched.filter((layer) => layer.methods.includes(ctx.method)).at(-1)?.path ?? ctx.path;
}
