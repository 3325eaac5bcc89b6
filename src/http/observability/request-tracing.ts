import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { requestRoute } from './request-route';

/**
 * A server span per request (docs/observability.md#traces), named by its method and route template,
 * around everything the request does: a record write's span, its workflow starts and, through
 * Temporal's headers, the workflow, its activities and the POST to the receiver are its
 * descendants. Installed only while tracing is on (src/tracing/tracing.ts).
 */
export function traceRequests(): Middleware {
  const tracer = trace.getTracer('crm-webhooks');
  return async (ctx, next) => {
    const span = tracer.startSpan(ctx.method, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path },
    });
    try {
      await context.with(trace.setSpan(context.active(), span), next);
    } finally {
      const route = requestRoute(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
