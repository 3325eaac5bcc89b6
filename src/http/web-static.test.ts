import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { webAppMiddleware } from './web-static';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("app");';
const SECRET = 'do-not-serve-this-secret';

/** A raw HTTP request: the path is sent exactly as written (fetch would normalise `..`). */
function get(
  server: Server,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function listen(app: Koa): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The middleware in front of a stand-in for the rest of the app, which answers what passes. */
function appServing(root: string): Koa {
  const app = new Koa();
  app.use(webAppMiddleware({ root }));
  app.use((ctx) => {
    if (ctx.path === '/app/api/session') {
      ctx.body = { route: 'session' };
      return;
    }
    ctx.status = 404;
    ctx.body = { passedThrough: `${ctx.method} ${ctx.path}` };
  });
  return app;
}

describe('webAppMiddleware', () => {
  let dir: string;
  let root: string;
  let server: Server;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'web-static-'));
    root = join(dir, 'web');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), INDEX);
    writeFileSync(join(root, 'assets', 'index-abc123.js'), SCRIPT);
    writeFileSync(join(root, 'assets', 'index-abc123.css'), 'body{margin:0}');
    writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(root, '.env'), SECRET);
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    writeFileSync(join(dir, 'web-secret.txt'), SECRET);
    server = await listen(appServing(root));
  });

  afterAll(async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at / with no-cache', async () => {
    const answer = await get(server, '/', { Accept: 'text/html' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.body).toBe(INDEX);
  });

  it('serves hashed assets with their content type and a long, immutable cache', async () => {
    const script = await get(server, '/assets/index-abc123.js', { Accept: '*/*' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe(SCRIPT);

    const style = await get(server, '/assets/index-abc123.css', { Accept: 'text/css,*/*;q=0.1' });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');

    const icon = await get(server, '/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
  });

  it('answers /index.html itself with no-cache', async () => {
    const answer = await get(server, '/index.html');
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.body).toBe(INDEX);
  });

  it('serves index.html for page paths a browser asks for (client-side routes)', async () => {
    for (const path of ['/sign-in', '/settings/api-keys', '/settings/api-keys/', '/onboarding?x=1']) {
      const answer = await get(server, path, {
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      });
      expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: INDEX });
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
  });

  it('passes on page paths that do not ask for HTML, and missing assets', async () => {
    const json = await get(server, '/settings/api-keys', { Accept: 'application/json' });
    expect(json.status).toBe(404);
    expect(JSON.parse(json.body)).toEqual({ passedThrough: 'GET /settings/api-keys' });

    const refused = await get(server, '/settings/api-keys', { Accept: 'text/html;q=0' });
    expect(refused.status).toBe(404);

    const missing = await get(server, '/assets/missing-123.js', { Accept: 'text/html,*/*' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ passedThrough: 'GET /assets/missing-123.js' });
  });

  it('never answers the API, the web app routes or /healthz, even for a browser', async () => {
    for (const path of ['/api/v1/webhooks', '/api', '/app/api/members', '/app/api', '/healthz']) {
      const answer = await get(server, path, { Accept: 'text/html' });
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 404,
        body: JSON.stringify({ passedThrough: `GET ${path}` }),
      });
    }
    const session = await get(server, '/app/api/session', { Accept: 'text/html' });
    expect(JSON.parse(session.body)).toEqual({ route: 'session' });
  });

  it('passes on methods other than GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const answer = await get(server, '/sign-in', { Accept: 'text/html' }, method);
      expect({ method, status: answer.status }).toEqual({ method, status: 404 });
      expect(JSON.parse(answer.body)).toEqual({ passedThrough: `${method} /sign-in` });
    }
  });

  it('answers HEAD with the headers and length but no body', async () => {
    const answer = await get(server, '/assets/index-abc123.js', {}, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));
    expect(answer.body).toBe('');
  });

  it('answers 304 to a conditional request for an unchanged file', async () => {
    const first = await get(server, '/assets/index-abc123.js');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const second = await get(server, '/assets/index-abc123.js', { 'If-None-Match': etag });
    expect(second.status).toBe(304);
    expect(second.body).toBe('');
  });

  it('never serves a file outside the root, nor hidden files', async () => {
    const attempts = [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/assets%2f..%2f..%2fsecret.txt',
      '/../web-secret.txt',
      '/..%2fweb-secret.txt',
      '/.env',
      '/%2eenv',
      '/index.html%00.js',
      '/%E0%A4%A',
    ];
    for (const path of attempts) {
      const answer = await get(server, path, { Accept: '*/*' });
      expect({ path, secret: answer.body.includes(SECRET), status: answer.status }).toEqual({
        path,
        secret: false,
        status: 404,
      });
      // A browser asking for such a path gets at most the app itself.
      const browser = await get(server, path, { Accept: 'text/html' });
      expect({ path, secret: browser.body.includes(SECRET) }).toEqual({ path, secret: false });
      expect([200, 404]).toContain(browser.status);
    }
  });

  it('passes everything on while index.html does not exist (web app not built)', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'web-static-empty-'));
    writeFileSync(join(empty, 'favicon.svg'), '<svg/>');
    const bare = await listen(appServing(empty));
    try {
      for (const path of ['/', '/sign-in', '/favicon.svg']) {
        const answer = await get(bare, path, { Accept: 'text/html' });
        expect({ path, status: answer.status, body: answer.body }).toEqual({
          path,
          status: 404,
          body: JSON.stringify({ passedThrough: `GET ${path}` }),
        });
      }
      // Built later (vite build while the API runs): served from then on, no restart needed.
      writeFileSync(join(empty, 'index.html'), INDEX);
      expect((await get(bare, '/sign-in', { Accept: 'text/html' })).body).toBe(INDEX);
    } finally {
      await close(bare);
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
