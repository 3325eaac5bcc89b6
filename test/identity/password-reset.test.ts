import { RESET_PASSWORD_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { mailboxOf, tokenIn, verificationToken } from '../helpers/mailboxes';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Password reset by an e-mailed link (issue 34), over HTTP: the same answer for every email, a link
 * only to an inbox of an existing account, single use, its own purpose, and the way the real owner
 * takes back an account a stranger pre-claimed.
 */
describe('password reset by e-mailed link', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const NEW_PASSWORD = 'quiet lantern river 77';
  const ask = (email: string, client = new WebClient(app.baseUrl, { from: freshClientAddress() })) =>
    client.request<any>('POST', '/app/api/auth/password-reset', { email });
  const resetToken = async (email: string) =>
    tokenIn(
      (await app.mail.waitForMessage({ to: email, subject: RESET_PASSWORD_SUBJECT })).Text,
      'reset-password',
    );
  const complete = (body: unknown) =>
    new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/password-reset/complete', body);

  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'known@example.com' });
    const known = await ask('known@example.com');
    const unknown = await ask('unknown@example.com');
    expect(known).toEqual({ status: 202, body: {} });
    expect(unknown).toEqual({ status: 202, body: {} });
    const message = await app.mail.waitForMessage({
      to: 'known@example.com',
      subject: RESET_PASSWORD_SUBJECT,
    });
    expect(message.Text).toContain(`${app.baseUrl}/app/reset-password?token=`);
    // Give a mail to the unknown address every chance to arrive: none does.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      (await app.mail.messages()).some((m) => m.To.some((to) => to.Address === 'unknown@example.com')),
    ).toBe(false);
  });

  it('the real owner takes back a pre-claimed account: new password, verified, the stranger signed out', async () => {
    // The stranger signs up with the victim's address and stays signed in.
    const { client: stranger } = await WebClient.signUpUnverified(app.baseUrl, {
      email: 'new.hire@victimcorp.test',
    });
    // The real person cannot sign up (the address is taken), and asks for a reset instead.
    expect(await ask('New.Hire@victimcorp.test')).toEqual({ status: 202, body: {} });
    const token = await resetToken('new.hire@victimcorp.test');
    expect(await complete({ token, newPassword: NEW_PASSWORD })).toEqual({ status: 204, body: undefined });

    expect((await stranger.request('GET', '/app/api/session')).status).toBe(401);
    const strangerAgain = await new WebClient(app.baseUrl, { from: freshClientAddress() }).request<any>(
      'POST',
      '/app/api/auth/sign-in',
      { email: 'new.hire@victimcorp.test', password: TEST_PASSWORD },
    );
    expect(strangerAgain.status).toBe(401);
    const { client: owner, session } = await WebClient.signIn(
      app.baseUrl,
      'new.hire@victimcorp.test',
      NEW_PASSWORD,
    );
    expect(session.emailVerified).toBe(true);
    expect((await owner.request('GET', '/app/api/api-keys')).status).toBe(200);

    // Single use.
    const again = await complete({ token, newPassword: 'another fine password 9' });
    expect(again.status).toBe(400);
    expect(again.body.error.issues[0]).toMatchObject({ customCode: 'tokenInvalid', path: ['token'] });
  });

  it('a token of one purpose is refused for the other', async () => {
    await WebClient.signUpUnverified(app.baseUrl, { email: 'purpose@example.com' });
    const verify = await verificationToken(app.baseUrl, 'purpose@example.com');
    const asReset = await complete({ token: verify, newPassword: NEW_PASSWORD });
    expect(asReset.status).toBe(400);
    expect(asReset.body.error.issues[0].customCode).toBe('tokenInvalid');

    await ask('purpose@example.com');
    const reset = await resetToken('purpose@example.com');
    const asVerify = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/verify-email', {
      token: reset,
    });
    expect(asVerify.status).toBe(400);
    expect(asVerify.body.error.issues[0].customCode).toBe('tokenInvalid');
    // Both links still work for their own purpose.
    expect((await complete({ token: reset, newPassword: NEW_PASSWORD })).status).toBe(204);
    const verified = await new WebClient(app.baseUrl).request('POST', '/app/api/auth/verify-email', {
      token: verify,
    });
    expect(verified.status).toBe(204);
  });

  it('holds the new password to the rule without spending the link; an expired link is refused', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'rules@example.com' });
    await ask('rules@example.com');
    const token = await resetToken('rules@example.com');
    const weak = await complete({ token, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.issues[0].path).toEqual(['newPassword']);
    const ownEmail = await complete({ token, newPassword: 'rules@example.com' });
    expect(ownEmail.status).toBe(400);

    await app.dataSource.query(
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset-password'`,
    );
    const expired = await complete({ token, newPassword: NEW_PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body.error.issues[0].customCode).toBe('tokenInvalid');
  });

  it('a newer link supersedes the older one', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'twice@example.com' });
    await ask('twice@example.com');
    const first = await resetToken('twice@example.com');
    await mailboxOf(app.baseUrl).clear();
    await ask('twice@example.com');
    const second = await resetToken('twice@example.com');
    expect(second).not.toBe(first);
    expect((await complete({ token: first, newPassword: NEW_PASSWORD })).status).toBe(400);
    expect((await complete({ token: second, newPassword: NEW_PASSWORD })).status).toBe(204);
  });

  it('counts requests per email, known or not, and answers 429 alike', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'counted@example.com' });
    for (const email of ['counted@example.com', 'ghost@example.com']) {
      for (let i = 0; i < 3; i++) expect((await ask(email)).status).toBe(202);
      const fourth = await ask(email);
      expect(fourth.status).toBe(429);
      expect(fourth.body.error).toMatchObject({ kind: 'rate_limit' });
      expect(fourth.body.error.issues[0].customCode).toBe('passwordResetThrottled');
    }
  });

  it("clears the account's sign-in lockout", async () => {
    await WebClient.signUp(app.baseUrl, { email: 'locked@example.com' });
    for (let i = 0; i < 6; i++) {
      await new WebClient(app.baseUrl, { from: freshClientAddress() }).request(
        'POST',
        '/app/api/auth/sign-in',
        {
          email: 'locked@example.com',
          password: 'wrong password here',
        },
      );
    }
    const locked = await new WebClient(app.baseUrl, { from: freshClientAddress() }).request<any>(
      'POST',
      '/app/api/auth/sign-in',
      { email: 'locked@example.com', password: TEST_PASSWORD },
    );
    expect(locked.status).toBe(429);
    await ask('locked@example.com');
    expect(
      (await complete({ token: await resetToken('locked@example.com'), newPassword: NEW_PASSWORD })).status,
    ).toBe(204);
    await WebClient.signIn(app.baseUrl, 'locked@example.com', NEW_PASSWORD);
  });
});
