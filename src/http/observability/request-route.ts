import type { Context } from 'koa';

declare module 'koa' {
  interface DefaultState {
    /** The route label of a request no router matched but a handler served (the OAuth server, the web app). */
    route?: string;
  }
}

/** The route of a request that no route matched: one value, so stray paths add no series or span names. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The template of the route that served the request (`/api/v1/webhooks/:id`), never its path: the
 * first matched layer with this request's method (routes run in order; a router's `use` layers
 * have no methods), else the first route of the path (a 405 keeps its template), else the route a
 * handler named (`ctx.state.route`), else UNMATCHED_ROUTE.
 */
export function requestRoute(ctx: Context): string {
  const matched = (ctx as { matched?: { path: string; methods: string[] }[] }).matched ?? [];
  const routes = matched.filter((layer) => layer.methods.length > 0);
  const served = routes.find((layer) => layer.methods.includes(ctx.method)) ?? routes[0];
  return served?.path ?? ctx.state.route ?? UNMATCHED_ROUTE;
}
