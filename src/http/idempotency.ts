import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { DataSource } from 'typeorm';
import { AppError, conflictError, ValidationError } from '../errors/app-error';

const KEY_MAX = 255;
const WINDOW = `interval '24 hours'`;

/**
 * REST writes with an idempotency key (the `Idempotency-Key` header or an `idempotencyKey` body
 * field): the same key from the same key owner within 24 hours answers the first answer again
 * (architecture.md, "idempotency"; spec.md, Client behavior for 429: "Resend a write with the
 * same idempotencyKey"). A key reused for another request is refused; a key whose first request
 * is still running answers 409 so the client retries later. Unexpected errors (500) and busy
 * refusals (429) keep no answer.
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
    if (typeof key !== 'string' || key.length > KEY_MAX) {
      throw ValidationError.of(
        `The idempotency key must be a string of at most ${KEY_MAX} characters.`,
        'idempotencyKeyInvalid',
        ['idempotencyKey'],
      );
    }
    const userId = ctx.state.actor.user.id;
    const fingerprint = createHash('sha256')
      .update(`${ctx.method} ${ctx.path}\n${JSON.stringify(body ?? null)}`)
      .digest('hex');

    await dataSource.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND created_at < now() - ${WINDOW}`,
      [userId],
    );
    const claimed: unknown[] = await dataSource.query(
      `INSERT INTO idempotency_keys (user_id, key, request_fingerprint) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key`,
      [userId, key, fingerprint],
    );
    if (!claimed.length) {
      const [first]: { request_fingerprint: string; status: number | null; body: unknown }[] =
        await dataSource.query(
          `SELECT request_fingerprint, status, body FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
          [userId, key],
        );
      if (!first || first.request_fingerprint !== fingerprint) {
        throw conflictError('This idempotency key was used for another request.', 'idempotencyKeyReused', [
          'idempotencyKey',
        ]);
      }
      if (first.status === null) {
        throw conflictError(
          'The first request with this idempotency key is still running; retry shortly.',
          'idempotencyKeyInProgress',
        );
      }
      ctx.status = first.status;
      ctx.body = first.body ?? '';
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }

    const remember = (status: number, answer: unknown) =>
      dataSource.query(`UPDATE idempotency_keys SET status = $3, body = $4 WHERE user_id = $1 AND key = $2`, [
        userId,
        key,
        status,
        answer === undefined || answer === '' ? null : JSON.stringify(answer),
      ]);
    try {
      await next();
    } catch (error) {
      if (error instanceof AppError) await remember(error.status, error.toBody());
      else
        await dataSource.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2`, [userId, key]);
      throw error;
    }
    await remember(ctx.status, ctx.body);
  };
}
