import type { Middleware } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import { requestRoute } from './request-route';

/**
 * The API's requests in /metrics (docs/observability.md#metrics): `http_requests_total` and
 * `http_request_duration_seconds` by method, route and status, and `http_rate_limited_total` by route
 * and the limit that answered 429. The route is the matched route's template
 * (`/api/v1/webhooks/:id`), never the path, so ids add no series. Runs first, around everything.
 */
export function httpMetrics(registry: Registry): Middleware {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request (to its last middleware), by method, route template and status.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: 'HTTP requests answered 429, by route template and the limit that refused them (a quota, a throttle, a full line).',
    labelNames: ['route', 'limit'] as const,
    registers: [registry],
  });
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = requestRoute(ctx);
      // Koa's status is the raw response's, so answers written by MCP's transport count too.
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      requests.inc(labels);
      durations.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      if (ctx.status === 429) rateLimited.inc({ route, limit: ctx.state.rateLimitedBy ?? 'other' });
    }
  };
}
