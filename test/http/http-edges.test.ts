import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient } from '../helpers/web-client';

/** Issue 10, hole 6 (a, b): a write that is not JSON, and a method the path does not have. */
describe('HTTP edges', () => {
  let app: TestApp;
  let key: string;
  let web: WebClient;
  let webhookId: string;

  const send = async (
    method: string,
    path: string,
    body: string | undefined,
    headers: Record<string, string>,
  ) => {
    const response = await fetch(`${app.baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : undefined) as any,
    };
  };
  const webhookCount = async () =>
    Number((await app.dataSource.query(`SELECT count(*) FROM webhooks`))[0].count);

  beforeAll(async () => {
    app = await startTestApp();
    web = (await WebClient.signUp(app.baseUrl, { email: 'edges@example.com' })).client;
    key = (await web.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    webhookId = (
      await web.ok('POST', '/app/api/webhooks', {
        url: 'https://example.com/edges',
        events: ['record.created'],
      })
    ).id;
  });
  afterAll(() => app.close());

  describe('a write whose body is not JSON is refused, and nothing changes', () => {
    const refusedAsNotJson = (answer: { status: number; body: any }) => {
      expect(answer.status).toBe(400);
      expect(answer.body.error.kind).toBe('validation');
      expect(answer.body.error.issues[0].customCode).toBe('unsupportedMediaType');
    };
    const json = JSON.stringify({ url: 'https://example.com/text', events: ['record.created'] });

    it('POST /api/v1/webhooks with text/plain', async () => {
      const before = await webhookCount();
      refusedAsNotJson(
        await send('POST', '/api/v1/webhooks', json, { 'x-api-key': key, 'content-type': 'text/plain' }),
      );
      expect(await webhookCount()).toBe(before);
    });

    it('POST /api/v1/webhooks as a form', async () => {
      refusedAsNotJson(
        await send('POST', '/api/v1/webhooks', 'url=https%3A%2F%2Fexample.com&events=record.created', {
          'x-api-key': key,
          'content-type': 'application/x-www-form-urlencoded',
        }),
      );
    });

    it('PATCH /api/v1/webhooks/{id} with text/plain or no Content-Type', async () => {
      const patch = JSON.stringify({ description: 'changed by text' });
      refusedAsNotJson(
        await send('PATCH', `/api/v1/webhooks/${webhookId}`, patch, {
          'x-api-key': key,
          'content-type': 'text/plain',
        }),
      );
      const untyped = await fetch(`${app.baseUrl}/api/v1/webhooks/${webhookId}`, {
        method: 'PATCH',
        headers: { 'x-api-key': key },
        body: new Blob([patch]),
      });
      expect(untyped.status).toBe(400);
      const [row] = await app.dataSource.query(`SELECT description FROM webhooks WHERE id = $1`, [webhookId]);
      expect(row.description).toBeNull();
    });

    it('the web app’s PATCH /app/api/webhooks/{id} with text/plain', async () => {
      const cookie = await signedInCookie();
      refusedAsNotJson(
        await send('PATCH', `/app/api/webhooks/${webhookId}`, JSON.stringify({ description: 'web text' }), {
          cookie,
          origin: app.baseUrl,
          'content-type': 'text/plain',
        }),
      );
    });

    it('still takes JSON, and a write with no body at all', async () => {
      const ok = await send(
        'PATCH',
        `/api/v1/webhooks/${webhookId}`,
        JSON.stringify({ description: 'json' }),
        {
          'x-api-key': key,
          'content-type': 'application/json; charset=utf-8',
        },
      );
      expect(ok.status).toBe(200);
      expect(ok.body.description).toBe('json');
      const bodiless = await send('POST', '/api/v1/model/discover', undefined, { 'x-api-key': key });
      expect(bodiless.status).toBe(200);
    });
  });

  describe('a method the path does not have answers 405 with Allow', () => {
    it('PUT /api/v1/webhooks/{id}', async () => {
      const answer = await send('PUT', `/api/v1/webhooks/${webhookId}`, '{}', {
        'x-api-key': key,
        'content-type': 'application/json',
      });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')!.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
      expect(answer.body).toEqual({
        error: {
          kind: 'validation',
          issues: [
            expect.objectContaining({ code: 'methodNotAllowed', customCode: 'methodNotAllowed', path: [] }),
          ],
        },
      });
    });

    it('DELETE /api/v1/webhooks and PUT /app/api/webhooks', async () => {
      const rest = await send('DELETE', '/api/v1/webhooks', undefined, { 'x-api-key': key });
      expect(rest.status).toBe(405);
      expect(rest.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
      expect(rest.body.error.issues[0].customCode).toBe('methodNotAllowed');
      const webApp = await send('PUT', '/app/api/webhooks', undefined, {
        cookie: await signedInCookie(),
        origin: app.baseUrl,
      });
      expect(webApp.status).toBe(405);
      expect(webApp.headers.get('allow')).toContain('POST');
    });

    it('an unknown path still answers 404 routeNotFound', async () => {
      const answer = await send('GET', '/api/v1/no-such-thing', undefined, { 'x-api-key': key });
      expect(answer.status).toBe(404);
      expect(answer.body.error.issues[0].customCode).toBe('routeNotFound');
    });
  });

  async function signedInCookie(): Promise<string> {
    const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ email: 'edges@example.com', password: TEST_PASSWORD }),
    });
    return response.headers.get('set-cookie')!.split(';')[0]!;
  }
});
