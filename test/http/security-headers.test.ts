import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_FORM_POST_POLICY, CONTENT_SECURITY_POLICY } from '../../src/http/security-headers';
import { projectRoot } from '../../src/project-root';
import { authorizationUrl, pkce, registerClient } from '../helpers/oauth';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 24, item 7: the web app and the OAuth consent page could be framed by any site and sent
 * no CSP, Referrer-Policy or X-Content-Type-Options. Every kind of answer now carries them: pages,
 * files, JSON successes and refusals, MCP and the authorization server's raw answers, health.
 * (Framing and the CSP in a real browser: test/browser/security-headers.test.ts.)
 */
describe('security headers on every answer', () => {
  let app: TestApp;
  let web: WebClient;
  let key: string;

  beforeAll(async () => {
    app = await startTestApp();
    web = (await WebClient.signUp(app.baseUrl, { email: 'headers@example.com' })).client;
    key = (await web.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
  });
  afterAll(() => app?.close());

  const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
    fetch(`${app.baseUrl}${path}`, { redirect: 'manual', ...init, headers });

  /** The four headers, with the policy every answer but the authorization server's has. */
  const secured = async (
    answer: Response | Promise<Response>,
    status: number,
    csp = CONTENT_SECURITY_POLICY,
  ) => {
    const response = await answer;
    expect(response.status).toBe(status);
    expect({
      csp: response.headers.get('content-security-policy'),
      frame: response.headers.get('x-frame-options'),
      referrer: response.headers.get('referrer-policy'),
      sniff: response.headers.get('x-content-type-options'),
    }).toEqual({ csp, frame: 'DENY', referrer: 'same-origin', sniff: 'nosniff' });
    await response.arrayBuffer();
    return response;
  };

  it('is a policy without inline script that nothing may frame', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|data:|blob:|\*/);
  });

  it('REST: a success, a refusal without a key, a validation refusal, an unknown path, a 405', async () => {
    await secured(get('/api/v1/me', { 'x-api-key': key }), 200);
    await secured(get('/api/v1/me'), 401);
    await secured(get('/api/v1/webhooks?limit=0', { 'x-api-key': key }), 400);
    await secured(get('/api/v1/nowhere', { 'x-api-key': key }), 404);
    await secured(get('/api/v1/webhooks', { 'x-api-key': key }, { method: 'PUT' }), 405);
  });

  it('the web app’s JSON routes, signed in and not', async () => {
    await secured(get('/app/api/session'), 401);
    const cookie = `crm_session=${web.sessionCookie}`;
    await secured(get('/app/api/session', { cookie }), 200);
  });

  it('MCP: a tools/list answered by the transport, and a refusal without a key', async () => {
    const mcp = (headers: Record<string, string>) =>
      get(
        '/api/v1/mcp',
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) },
      );
    await secured(mcp({ 'x-api-key': key }), 200);
    await secured(mcp({}), 401);
  });

  it('health and the OpenAPI document', async () => {
    const health = await get('/healthz');
    await secured(health, health.status);
    await secured(get('/api/v1/openapi.json'), 200);
  });

  describe('the web app (dist/web)', () => {
    beforeAll(() => {
      if (!existsSync(join(projectRoot(), 'dist', 'web', 'index.html')))
        throw new Error('Build the web app first: npx vite build');
    });

    it('a page, the index, a hashed asset, the icon and a 304', async () => {
      const page = await secured(get('/webhooks', { accept: 'text/html' }), 200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const index = await get('/', { accept: 'text/html' });
      const html = await index.text();
      await secured(get('/', { accept: 'text/html' }), 200);
      // The built page has no inline script or style for the policy to allow.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\son[a-z]+=/i);
      const script = html.match(/src="(\/assets\/[^"]+\.js)"/)![1]!;
      await secured(get(script), 200);
      await secured(get('/favicon.svg'), 200);
      // (fetch adds `Cache-Control: no-cache` to a conditional request unless it has one.)
      const etag = index.headers.get('etag')!;
      await secured(
        get('/', { accept: 'text/html', 'if-none-match': etag, 'cache-control': 'max-age=0' }),
        304,
      );
    });
  });

  describe('OAuth', () => {
    it('the metadata, oidc-provider’s discovery and its refusals', async () => {
      await secured(get('/.well-known/oauth-protected-resource/api/v1/mcp'), 200);
      await secured(get('/.well-known/oauth-authorization-server/oauth'), 200, CLIENT_FORM_POST_POLICY);
      await secured(get('/oauth/.well-known/openid-configuration'), 200, CLIENT_FORM_POST_POLICY);
      await secured(get('/oauth/auth?client_id=unknown'), 400, CLIENT_FORM_POST_POLICY);
      await secured(
        get(
          '/oauth/token',
          { 'content-type': 'application/x-www-form-urlencoded' },
          { method: 'POST', body: 'grant_type=authorization_code&code=nope' },
        ),
        400,
        CLIENT_FORM_POST_POLICY,
      );
    });

    it('the authorization request’s redirect to the consent page, the page and its JSON route', async () => {
      const redirectUri = 'http://127.0.0.1:9/callback';
      const client = await registerClient(app.baseUrl, redirectUri);
      const start = await secured(
        get(authorizationUrl(app.baseUrl, client, redirectUri, pkce().challenge).slice(app.baseUrl.length)),
        303,
        CLIENT_FORM_POST_POLICY,
      );
      const consentPath = start.headers.get('location')!;
      expect(consentPath).toMatch(/^\/consent\//);
      await secured(get(consentPath, { accept: 'text/html' }), 200);
      await secured(get(`${consentPath}/details`, { cookie: `crm_session=${web.sessionCookie}` }), 404);
    });
  });
});
