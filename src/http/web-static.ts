import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type Koa from 'koa';

/** Paths the web app never answers: the REST API, the web app's own JSON routes, health. */
const RESERVED_PREFIXES = ['/api/', '/app/api/', '/healthz'];
const RESERVED_EXACT = ['/api', '/app/api'];

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** Vite names every file under /assets/ after its content hash, so those never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const SHORT = 'public, max-age=3600';

interface StaticFile {
  path: string;
  size: number;
  mtime: Date;
}

/** The route label of the web app's files and pages in /metrics (their paths are unbounded). */
export const WEB_APP_ROUTE = 'web app';

/**
 * Serves the built web app (dist/web) for GET and HEAD: existing files with their content type,
 * and `index.html` for any other page path a browser asks for (the app routes on the client).
 * Passes everything else on, and everything at all while `root/index.html` does not exist.
 */
export function webAppMiddleware(options: { root: string }): Koa.Middleware {
  const root = resolve(options.root);
  const indexPath = join(root, 'index.html');

  return async function webApp(ctx, next) {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const path = ctx.path;
    if (isReserved(path)) return next();

    const index = await fileAt(indexPath);
    if (!index) return next();

    const requested = path === '/' ? indexPath : resolveInside(root, path);
    const file = requested === indexPath ? index : requested ? await fileAt(requested) : undefined;
    if (file) {
      ctx.state.route = WEB_APP_ROUTE;
      const cacheControl =
        file.path === indexPath ? REVALIDATE : path.startsWith('/assets/') ? IMMUTABLE : SHORT;
      return send(ctx, file, cacheControl);
    }

    // SPA fallback: a page of the app (not a missing asset) asked for by a browser.
    if (!path.startsWith('/assets/') && acceptsHtml(ctx.get('Accept'))) {
      ctx.state.route = WEB_APP_ROUTE;
      return send(ctx, index, REVALIDATE);
    }
    return next();
  };
}

function isReserved(path: string): boolean {
  return RESERVED_EXACT.includes(path) || RESERVED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** The file for a URL path if it lies inside root, or undefined (traversal, bad encoding, dotfiles). */
function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  // Refuses `..` outright (rather than normalising it) and hidden files such as `.env`.
  if (segments.length === 0 || segments.some((segment) => segment.startsWith('.'))) return undefined;
  const full = resolve(root, ...segments);
  const inside = relative(root, full);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside) || !full.startsWith(root + sep)) {
    return undefined;
  }
  return full;
}

async function fileAt(path: string): Promise<StaticFile | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? { path, size: stats.size, mtime: stats.mtime } : undefined;
  } catch {
    return undefined;
  }
}

/** True when the Accept header names text/html explicitly (browsers do for pages, not for scripts). */
function acceptsHtml(accept: string): boolean {
  return accept
    .split(',')
    .map((part) => part.split(';'))
    .some(([type, ...params]) => {
      if (type?.trim().toLowerCase() !== 'text/html') return false;
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      return q === undefined || Number(q.slice(2)) > 0;
    });
}

async function send(ctx: Koa.Context, file: StaticFile, cacheControl: string): Promise<void> {
  ctx.status = 200;
  ctx.type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  ctx.set('Cache-Control', cacheControl);
  ctx.lastModified = file.mtime;
  ctx.etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtime.getTime()).toString(16)}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (ctx.method === 'HEAD') {
    ctx.length = file.size;
    return;
  }
  ctx.body = await readFile(file.path);
}
