import { Agent, fetch as fetchFrom } from 'undici';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { verificationToken } from '../helpers/mailboxes';
import { WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * The e-mailed links' routes need no account (issue 34): a stranger can send them tokens as fast as
 * they are answered. From the stranger's side over HTTP: every link that is not valid counts
 * against the client address, and once the address has used its budget (here 3, the setting
 * API_KEY_FAILURES_PER_ADDRESS) each link route answers 429 `linkThrottled` before any lookup,
 * while another address, and the same address's API key, are served as before.
 */
describe('links that are not valid, per client address', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ API_KEY_FAILURES_PER_ADDRESS: '3', API_KEY_FAILURE_WINDOW_SECONDS: '600' });
  });
  afterAll(() => app.close());

  /** A request from the loopback address `from`, answered with its status, headers and body. */
  const send = async (from: string, method: string, path: string, body?: unknown, headers = {}) => {
    const response = await fetchFrom(`${app.baseUrl}${path}`, {
      method,
      headers: { origin: app.baseUrl, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: new Agent({ localAddress: from }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text ? JSON.parse(text) : undefined) as any,
    };
  };
  const bogus = () => `x${Math.random().toString(36).slice(2)}`.padEnd(43, 'y');
  const LINK_ROUTES: [string, () => unknown][] = [
    ['/app/api/auth/verify-email', () => ({ token: bogus() })],
    [
      '/app/api/auth/password-reset/complete',
      () => ({ token: bogus(), newPassword: 'plum kettle orbit 77' }),
    ],
    ['/app/api/invitations/preview', () => ({ token: bogus() })],
    [
      '/app/api/invitations/accept-new',
      () => ({ token: bogus(), name: 'Stranger', password: 'plum kettle orbit 77' }),
    ],
  ];

  it('refuses an address with 429 linkThrottled on every link route once its failures reach the budget', async () => {
    const stranger = freshClientAddress();
    // Three failures, one on each of three routes: each an honest 400.
    for (const [path, body] of LINK_ROUTES.slice(0, 3)) {
      const answer = await send(stranger, 'POST', path, body());
      expect([path, answer.status]).toEqual([path, 400]);
    }
    // From there every link route refuses the address, whatever its token.
    for (const [path, body] of LINK_ROUTES) {
      const answer = await send(stranger, 'POST', path, body());
      expect([path, answer.status]).toEqual([path, 429]);
      expect(answer.body.error.kind).toBe('rate_limit');
      expect(answer.body.error.issues[0]).toMatchObject({
        code: 'rate_limit',
        customCode: 'linkThrottled',
        message: expect.stringMatching(/^Too many links that are not valid were opened from this address/),
      });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(500);
    }
  });

  it('keeps serving another address, a valid link from it, and the blocked address with an API key', async () => {
    const stranger = freshClientAddress();
    for (let i = 0; i < 3; i++)
      await send(stranger, 'POST', '/app/api/auth/verify-email', { token: bogus() });
    expect((await send(stranger, 'POST', '/app/api/auth/verify-email', { token: bogus() })).status).toBe(429);

    // A person elsewhere opens their own link: served.
    const { client: person } = await WebClient.signUpUnverified(app.baseUrl, {
      email: 'link-person@example.com',
    });
    const token = await verificationToken(app.baseUrl, 'link-person@example.com');
    expect((await person.request('POST', '/app/api/auth/verify-email', { token })).status).toBe(204);
    expect((await person.ok('GET', '/app/api/session')).emailVerified).toBe(true);

    // Links and keys are counted apart: the blocked address still uses a key it holds.
    const key = (await person.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
    const me = await send(stranger, 'GET', '/api/v1/me', undefined, { 'x-api-key': key });
    expect(me.status).toBe(200);
  });
});
