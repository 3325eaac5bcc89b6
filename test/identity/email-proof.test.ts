import { startTestApp, type TestApp } from '../helpers/test-app';
import { verificationToken } from '../helpers/mailboxes';
import { WebClient } from '../helpers/web-client';

/**
 * Proof of the address (issue 34, item 1, account pre-claim), from the stranger's side over HTTP:
 * a signed-up account can do nothing until the link e-mailed to its address is opened; the link
 * works once, only while fresh, and only the newest one.
 */
describe('proof of the address at sign-up', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  /** Every family of signed-in routes, read and write (docs/app-api.md). */
  const ROUTES: [string, string, unknown?][] = [
    ['GET', '/app/api/api-keys'],
    ['POST', '/app/api/api-keys', { name: 'k' }],
    ['POST', '/app/api/api-keys/quick', { clientKind: 'claude-desktop' }],
    ['GET', '/app/api/quick-connections'],
    ['GET', '/app/api/members'],
    ['GET', '/app/api/invitations'],
    [
      'POST',
      '/app/api/invitations',
      { email: 'someone@example.com', roleId: '00000000-0000-4000-8000-000000000000' },
    ],
    ['GET', '/app/api/roles'],
    ['POST', '/app/api/roles', { name: 'R' }],
    ['POST', '/app/api/workspaces', { name: 'Another' }],
    ['POST', '/app/api/session/workspace', { workspaceId: '00000000-0000-4000-8000-000000000000' }],
    ['POST', '/app/api/auth/password', { currentPassword: 'x', newPassword: 'plum kettle orbit 43' }],
    ['POST', '/app/api/onboarding/complete'],
    ['POST', '/app/api/model/discover', {}],
    ['GET', '/app/api/records/companies'],
    ['POST', '/app/api/records/companies', { values: {} }],
    ['GET', '/app/api/webhooks'],
    ['POST', '/app/api/webhooks', { url: 'https://example.com/h', events: ['record.created'] }],
    ['GET', '/app/api/webhooks/deliveries'],
    ['GET', '/app/api/connected-accounts'],
    ['GET', '/app/api/connected-apps'],
  ];

  it('an unverified account is refused 403 emailNotVerified on every route family, and its session says so', async () => {
    const { client, session } = await WebClient.signUpUnverified(app.baseUrl, {
      email: 'new.hire@victimcorp.test',
    });
    expect(session).toMatchObject({ user: { email: 'new.hire@victimcorp.test' }, emailVerified: false });
    expect((await client.ok('GET', '/app/api/session')).emailVerified).toBe(false);

    for (const [method, path, body] of ROUTES) {
      const answer = await client.request<any>(method, path, body);
      expect({ route: `${method} ${path}`, status: answer.status }).toEqual({
        route: `${method} ${path}`,
        status: 403,
      });
      expect(answer.body.error).toMatchObject({ kind: 'authorization' });
      expect(answer.body.error.issues[0]).toMatchObject({ customCode: 'emailNotVerified' });
    }
    // Signing in again does not get past it either.
    const again = new WebClient(app.baseUrl);
    await again.ok('POST', '/app/api/auth/sign-in', {
      email: 'new.hire@victimcorp.test',
      password: 'plum kettle orbit 42',
    });
    expect((await again.request('GET', '/app/api/api-keys')).status).toBe(403);
    // Nothing was made on its behalf.
    const [{ count }] = await app.dataSource.query(
      `SELECT count(*)::int AS count FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.email = $1`,
      ['new.hire@victimcorp.test'],
    );
    expect(count).toBe(0);
    // Signing out needs no proof.
    expect((await client.request('POST', '/app/api/auth/sign-out')).status).toBe(204);
  });

  it('the e-mailed link proves the address once; the account then works', async () => {
    const { client } = await WebClient.signUpUnverified(app.baseUrl, { email: 'real@example.com' });
    const message = await app.mail.waitForMessage({ to: 'real@example.com' });
    expect(message.Text).toContain(`${app.baseUrl}/app/verify-email?token=`);
    const token = await verificationToken(app.baseUrl, 'real@example.com');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token is stored hashed, never as sent.
    const stored = await app.dataSource.query(`SELECT token_hash FROM email_tokens`);
    expect(JSON.stringify(stored)).not.toContain(token);

    // No session is needed: the link may be opened in another browser.
    const elsewhere = new WebClient(app.baseUrl);
    expect((await elsewhere.request('POST', '/app/api/auth/verify-email', { token })).status).toBe(204);
    expect((await client.ok('GET', '/app/api/session')).emailVerified).toBe(true);
    expect((await client.request('POST', '/app/api/api-keys', { name: 'k' })).status).toBe(201);

    const reused = await elsewhere.request<any>('POST', '/app/api/auth/verify-email', { token });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ kind: 'validation' });
    expect(reused.body.error.issues[0]).toMatchObject({ customCode: 'tokenInvalid', path: ['token'] });
    // Once verified, there is nothing to re-send.
    const resend = await client.request<any>('POST', '/app/api/auth/verify-email/resend');
    expect(resend.status).toBe(409);
    expect(resend.body.error.issues[0].customCode).toBe('emailAlreadyVerified');
  });

  it('refuses an unknown, a made-up and an expired token, all alike', async () => {
    const { client } = await WebClient.signUpUnverified(app.baseUrl, { email: 'late@example.com' });
    const token = await verificationToken(app.baseUrl, 'late@example.com');
    await app.dataSource.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE email = 'late@example.com')`,
    );
    for (const candidate of [token, 'A'.repeat(43), `${token.slice(0, -1)}x`]) {
      const answer = await client.request<any>('POST', '/app/api/auth/verify-email', { token: candidate });
      expect(answer.status).toBe(400);
      expect(answer.body.error.issues[0]).toMatchObject({ customCode: 'tokenInvalid' });
    }
    expect((await client.ok('GET', '/app/api/session')).emailVerified).toBe(false);
    const missing = await client.request<any>('POST', '/app/api/auth/verify-email', {});
    expect(missing.status).toBe(400);
  });

  it('re-sends the link at most once a minute; a new link supersedes the old one', async () => {
    const { client } = await WebClient.signUpUnverified(app.baseUrl, { email: 'again@example.com' });
    const first = await verificationToken(app.baseUrl, 'again@example.com');
    const soon = await client.request<any>('POST', '/app/api/auth/verify-email/resend');
    expect(soon.status).toBe(429);
    expect(soon.body.error).toMatchObject({ kind: 'rate_limit' });
    expect(soon.body.error.issues[0].customCode).toBe('verificationMailThrottled');

    // A minute later (the clock moved in the database, not in the test).
    await app.dataSource.query(
      `UPDATE email_tokens SET created_at = created_at - interval '61 seconds'
       WHERE user_id = (SELECT id FROM users WHERE email = 'again@example.com')`,
    );
    expect((await client.request('POST', '/app/api/auth/verify-email/resend')).status).toBe(204);
    let second = first;
    await (async () => {
      for (let i = 0; i < 100 && second === first; i++) {
        second = await verificationToken(app.baseUrl, 'again@example.com');
        if (second === first) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    expect(second).not.toBe(first);
    expect((await client.request('POST', '/app/api/auth/verify-email', { token: first })).status).toBe(400);
    expect((await client.request('POST', '/app/api/auth/verify-email', { token: second })).status).toBe(204);
  });

  it('allows five links an hour', async () => {
    const { client } = await WebClient.signUpUnverified(app.baseUrl, { email: 'many@example.com' });
    const age = `UPDATE email_tokens SET created_at = created_at - interval '61 seconds'
       WHERE user_id = (SELECT id FROM users WHERE email = 'many@example.com')`;
    for (let sent = 1; sent < 5; sent++) {
      await app.dataSource.query(age);
      expect((await client.request('POST', '/app/api/auth/verify-email/resend')).status).toBe(204);
    }
    await app.dataSource.query(age);
    const sixth = await client.request<any>('POST', '/app/api/auth/verify-email/resend');
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.issues[0].customCode).toBe('verificationMailThrottled');
  });
});
