import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log: Logger;
  }
}

// A caller's id is kept only when it is short and plain, so it cannot inject into logs.
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (echoed as `X-Request-Id`) and a child logger bound to it. */
export function requestId(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const id = ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set('X-Request-Id', id);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      ctx.state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
        },
        'request',
      );
    }
  };
}
