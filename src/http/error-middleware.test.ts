import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import {
  type AppError,
  authorizationError,
  conflictError,
  notFoundError,
  rateLimitError,
  unavailableError,
  ValidationError,
} from '../shared/app-error';
import { createLogger } from '../logger';
import { createBaseApp } from './base-app';

type RefusalBody = ReturnType<AppError['toBody']>;
const refusal = async (response: Response) => (await response.json()) as RefusalBody;

describe('error middleware over real HTTP', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = createBaseApp({ logger: createLogger('silent'), bodyLimitKb: 16 });
    const router = new Router();
    router.get('/validation', () => {
      throw ValidationError.of('Bad URL.', 'urlSchemeNotAllowed', ['url']);
    });
    router.get('/authorization', () => {
      throw authorizationError('No.', 'insufficientPermissions');
    });
    router.get('/not-found', () => {
      throw notFoundError('Webhook not found.', 'webhookNotFound');
    });
    router.get('/conflict', () => {
      throw conflictError('Stale.', 'schemaRevisionStale', ['expectedSchemaRevision']);
    });
    router.get('/unavailable', () => {
      throw unavailableError('Provider refused.', 'providerRefused', true);
    });
    router.get('/rate-limit', () => {
      throw rateLimitError('Slow down.', 2.5, 'unipileRateLimit');
    });
    router.get('/crash', () => {
      throw new Error('secret internal detail');
    });
    router.get('/busy', () => {
      throw Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
    });
    router.post('/echo', (ctx) => {
      ctx.body = { received: ctx.request.body };
    });
    app.use(router.routes());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['validation', 400, 'urlSchemeNotAllowed'],
    ['authorization', 403, 'insufficientPermissions'],
    ['not-found', 404, 'webhookNotFound'],
    ['conflict', 409, 'schemaRevisionStale'],
    ['unavailable', 422, 'providerRefused'],
    ['rate-limit', 429, 'unipileRateLimit'],
  ])('%s answers %i with the spec body', async (path, status, customCode) => {
    const response = await fetch(`${base}/${path}`);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = await refusal(response);
    expect(body.error.kind).toBe(path.replace('-', '_'));
    expect(body.error.issues[0]).toMatchObject({
      customCode,
      message: expect.any(String),
      path: expect.any(Array),
    });
  });

  it('sends Retry-After in whole seconds on rate_limit', async () => {
    const response = await fetch(`${base}/rate-limit`);
    expect(response.headers.get('retry-after')).toBe('3');
    expect((await refusal(response)).error.retryable).toBe(true);
  });

  it('answers an unexpected error with a bare 500 and no body', async () => {
    const response = await fetch(`${base}/crash`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('');
  });

  it('answers a database lock timeout with the busy refusal', async () => {
    const response = await fetch(`${base}/busy`);
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await refusal(response);
    expect(body.error.kind).toBe('rate_limit');
    expect(body.error.issues[0]!.message).toBe('The service is busy. Retry the request shortly.');
    expect(body.error.issues[0]).not.toHaveProperty('customCode');
  });

  it('refuses malformed JSON and oversized bodies as validation errors', async () => {
    const malformed = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"url": ',
    });
    expect(malformed.status).toBe(400);
    expect((await refusal(malformed)).error.issues[0]!.customCode).toBe('invalidJson');

    const huge = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(20 * 1024) }),
    });
    expect(huge.status).toBe(400);
    expect((await refusal(huge)).error.issues[0]!.customCode).toBe('requestBodyTooLarge');
  });

  it('gives every answer a request id, keeping a plain one the caller sent', async () => {
    const generated = await fetch(`${base}/not-found`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${base}/not-found`, { headers: { 'x-request-id': 'trace-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-123');
    const refused = await fetch(`${base}/not-found`, { headers: { 'x-request-id': 'bad id\twith tab' } });
    // Replaced by a generated id (a UUID may itself contain the hex letters "bad", so match its shape).
    expect(refused.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});
