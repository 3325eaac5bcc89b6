import type { Middleware } from 'koa';
import { AppError, MethodNotAllowedError, ValidationError } from '../shared/app-error';
import { busyErrorFrom } from '../errors/busy';

declare module 'koa' {
  interface DefaultState {
    /** Which limit answered this request 429 (a quota, a throttle, a full line), for /metrics. */
    rateLimitedBy?: string;
  }
}

/**
 * The single place where thrown errors become HTTP answers (docs/api.md#errors):
 * an AppError becomes the spec's refusal body and status; body-parser failures become
 * validation refusals; database overload becomes the busy 429; anything else is an
 * unexpected error, logged with the request id and answered 500 with no body.
 */
export function errorMiddleware(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const known = thrown instanceof AppError ? thrown : (fromBodyParser(thrown) ?? busyErrorFrom(thrown));
      if (known) {
        ctx.status = known.status;
        ctx.body = known.toBody();
        if (known instanceof MethodNotAllowedError) ctx.set('Allow', known.allow.join(', '));
        if (known.options.retryAfterSeconds !== undefined) {
          ctx.set('Retry-After', String(Math.ceil(known.options.retryAfterSeconds)));
        }
        if (known.kind === 'rate_limit') {
          ctx.state.rateLimitedBy = known.options.limit ?? 'other';
          ctx.state.log?.warn({ err: thrown }, 'refused: busy');
        }
        return;
      }
      ctx.state.log?.error({ err: thrown }, 'unexpected error');
      ctx.status = 500;
      ctx.body = '';
    }
  };
}

/** @koa/bodyparser throws http-errors with `status` and `type`; keep its verdict, use our body. */
function fromBodyParser(thrown: unknown): AppError | undefined {
  const error = thrown as { status?: unknown; type?: unknown; message?: unknown };
  if (error?.status === 413 || error?.type === 'entity.too.large') {
    return ValidationError.of('The request body is too large.', 'requestBodyTooLarge');
  }
  if (error?.status === 415 || error?.type === 'unsupported.media.type') {
    return ValidationError.of(
      'The request body must be JSON (Content-Type: application/json).',
      'unsupportedMediaType',
    );
  }
  if (error?.status === 400 && typeof error.message === 'string') {
    return ValidationError.of('The request body is not valid JSON.', 'invalidJson');
  }
  return undefined;
}
