import { RESET_PASSWORD_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { INVITATION_SUBJECT_PREFIX } from '../../src/identity/invitations/invitation-mail';
import { tokenIn, verificationToken } from '../helpers/mailboxes';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Issue 34, item 4, from the attacker's side: knowing only an e-mail, a stranger's wrong passwords
 * lock the account (5 in a row, then one more each time the lock ends). A browser that signed in to
 * the account before carries a device cookie (OWASP's device cookies) and is counted apart, so the
 * owner still signs in there, and changes their password, while the stranger keeps guessing; a
 * client without one, or with a forged or another account's cookie, stays refused as before.
 * Time passing is played by ageing the stored windows, as test/identity/sign-in-throttle.test.ts does.
 */
describe('device cookies: a lockout that strangers cannot aim', () => {
  let app: TestApp;
  let people = 0;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const WRONG = (n: number) => `wrong guess number ${n}`;
  const signIn = (client: WebClient, email: string, password: string) =>
    client.request<any>('POST', '/app/api/auth/sign-in', { email, password });
  const expectThrottled = (answer: { status: number; body: any }, whose: RegExp) => {
    expect(answer.status).toBe(429);
    expect(answer.body.error).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      issues: [{ customCode: 'signInThrottled' }],
    });
    expect(answer.body.error.issues[0].message).toMatch(whose);
  };
  const age = (seconds: number) =>
    app.dataSource.query(`UPDATE rate_limits SET expire = expire - $1 WHERE key LIKE 'sign-in-%'`, [
      seconds * 1000,
    ]);

  /** A person who signed up, and their own browser, which signed in once and signed out. */
  async function victimWithKnownBrowser() {
    const email = `victim-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    const address = freshClientAddress();
    const browser = new WebClient(app.baseUrl, { from: address });
    expect((await signIn(browser, email, TEST_PASSWORD)).status).toBe(200);
    expect(browser.cookieNamed('crm_device')).toBeDefined();
    await browser.ok('POST', '/app/api/auth/sign-out', undefined, [204]);
    expect(browser.cookieNamed('crm_session')).toBeUndefined();
    // The device cookie outlives the session.
    expect(browser.cookieNamed('crm_device')).toBeDefined();
    return { email, address, browser };
  }

  /** A stranger who knows the e-mail locks the account from an address of their own. */
  async function lockOut(email: string): Promise<WebClient> {
    const attacker = new WebClient(app.baseUrl, { from: freshClientAddress() });
    for (let n = 1; n <= 5; n++) expect((await signIn(attacker, email, WRONG(n))).status).toBe(401);
    expectThrottled(await signIn(attacker, email, WRONG(6)), /for this email/);
    return attacker;
  }

  it("the owner's known browser signs in while a stranger keeps the account locked; a browser without one waits", async () => {
    const { email, address, browser } = await victimWithKnownBrowser();
    const attacker = await lockOut(email);

    // Before: from the owner's own address, without the cookie, even the right password is refused.
    const cookieless = new WebClient(app.baseUrl, { from: address });
    expectThrottled(await signIn(cookieless, email, TEST_PASSWORD), /for this email/);
    expect(cookieless.cookieNamed('crm_session')).toBeUndefined();

    // The attacker keeps guessing (one more each time the lock ends); the owner signs in each time.
    for (let round = 1; round <= 4; round++) {
      const owner = await signIn(browser, email, TEST_PASSWORD);
      expect(owner.status).toBe(200);
      expect(owner.body.user.email).toBe(email);
      expect((await browser.ok('GET', '/app/api/session')).user.email).toBe(email);
      await browser.ok('POST', '/app/api/auth/sign-out', undefined, [204]);

      // The owner's success handed the attacker no fresh run: still locked, with the right password too.
      expectThrottled(await signIn(attacker, email, WRONG(10 + round)), /for this email/);
      expectThrottled(await signIn(attacker, email, TEST_PASSWORD), /for this email/);
      expectThrottled(await signIn(cookieless, email, TEST_PASSWORD), /for this email/);
      await age(15 * 60);
      expect((await signIn(attacker, email, WRONG(20 + round))).status).toBe(401);
    }
  });

  it('a known browser behind the same address as the attacker (an office) is not held by the address lock either', async () => {
    const { email, browser } = await victimWithKnownBrowser();
    const office = freshClientAddress();
    const sprayer = new WebClient(app.baseUrl, { from: office });
    // Ten failures over other e-mails lock the shared address, five more lock the victim's account.
    for (let n = 1; n <= 10; n++) {
      expect((await signIn(sprayer, `nobody-${people}-${n}@example.com`, WRONG(n))).status).toBe(401);
    }
    expectThrottled(await signIn(sprayer, email, TEST_PASSWORD), /from this address/);
    await lockOut(email);

    // The victim's known browser, on the office network: the shared address.
    const inOffice = new WebClient(app.baseUrl, { from: office });
    inOffice.setCookie('crm_device', browser.cookieNamed('crm_device'));
    expect((await signIn(inOffice, email, TEST_PASSWORD)).status).toBe(200);
    expectThrottled(await signIn(sprayer, email, TEST_PASSWORD), /from this address/);
  });

  it("gives no exemption to a forged or altered device cookie, or to one of the attacker's own account", async () => {
    const { email, browser } = await victimWithKnownBrowser();
    const attacker = await lockOut(email);

    // The attacker's own account, signed in from their browser: a valid cookie, for another account.
    const own = `attacker-${people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email: own });
    expect((await signIn(attacker, own, TEST_PASSWORD)).status).toBe(200);
    const attackersCookie = attacker.cookieNamed('crm_device')!;
    expectThrottled(await signIn(attacker, email, TEST_PASSWORD), /for this email/);
    expectThrottled(await signIn(attacker, email, WRONG(7)), /for this email/);

    // The victim's cookie with a nonce of the attacker's choosing, or made up from nothing.
    const [version, tag, nonce, issued, signature] = browser.cookieNamed('crm_device')!.split('.');
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    for (const forged of [
      [version, tag, flip(nonce!), issued, signature].join('.'),
      [version, attackersCookie.split('.')[1], nonce, issued, signature].join('.'),
      [version, tag, nonce, issued, attackersCookie.split('.')[4]].join('.'),
      `v1.${'A'.repeat(24)}.${'B'.repeat(22)}.${issued}.${'C'.repeat(43)}`,
    ]) {
      attacker.setCookie('crm_device', forged);
      expectThrottled(await signIn(attacker, email, TEST_PASSWORD), /for this email/);
    }
    // Meanwhile the real one still works.
    expect((await signIn(browser, email, TEST_PASSWORD)).status).toBe(200);
  });

  it('a stolen device cookie gets a small lock of its own, and its guesses do not lock the account', async () => {
    const { email, browser } = await victimWithKnownBrowser();
    const thief = new WebClient(app.baseUrl, { from: freshClientAddress() });
    thief.setCookie('crm_device', browser.cookieNamed('crm_device'));

    for (let n = 1; n <= 5; n++) expect((await signIn(thief, email, WRONG(n))).status).toBe(401);
    // Locked for that device (SIGN_IN_DEVICE_FAILURES = 5), the right password included…
    expectThrottled(await signIn(thief, email, WRONG(6)), /from this browser/);
    expectThrottled(await signIn(thief, email, TEST_PASSWORD), /from this browser/);
    // …while the account is not: a new browser with the right password signs in (and gets its own cookie).
    const elsewhere = new WebClient(app.baseUrl, { from: freshClientAddress() });
    expect((await signIn(elsewhere, email, TEST_PASSWORD)).status).toBe(200);
    expect(elsewhere.cookieNamed('crm_device')).not.toBe(browser.cookieNamed('crm_device'));

    // The device's lock doubles like the others': one more failure after the first minute, two minutes.
    await age(60);
    expect((await signIn(thief, email, WRONG(7))).status).toBe(401);
    const longer = await signIn(thief, email, TEST_PASSWORD);
    expectThrottled(longer, /from this browser/);
    expect(longer.body.error.issues[0].message).toMatch(/2 minutes|1[0-9]{2} seconds/);
  });

  it('change password with the right current password is not refused by a lock strangers set', async () => {
    const email = `changer-${++people}@example.com`;
    const { client: signedIn } = await WebClient.signUp(app.baseUrl, { email });
    const attacker = await lockOut(email);

    const NEW = 'a brand new passphrase for me';
    await signedIn.ok(
      'POST',
      '/app/api/auth/password',
      { currentPassword: TEST_PASSWORD, newPassword: NEW },
      [204],
    );
    // The stranger's lock still holds for browsers without a device cookie, for the new password too.
    expectThrottled(await signIn(attacker, email, NEW), /for this email/);
    await age(60);
    expect(
      (await signIn(new WebClient(app.baseUrl, { from: freshClientAddress() }), email, NEW)).status,
    ).toBe(200);
  });

  it('a browser that signed up, or changed its password, is a known browser too', async () => {
    const email = `signed-up-${++people}@example.com`;
    const { client: signedUp } = await WebClient.signUp(app.baseUrl, { email });
    const first = signedUp.cookieNamed('crm_device');
    expect(first).toBeDefined();
    await lockOut(email);
    // Its session ends (30 days later, or signed out) while a stranger keeps the account locked.
    await signedUp.ok('POST', '/app/api/auth/sign-out', undefined, [204]);
    expect((await signIn(signedUp, email, TEST_PASSWORD)).status).toBe(200);

    const NEW = 'another fresh passphrase here';
    await signedUp.ok(
      'POST',
      '/app/api/auth/password',
      { currentPassword: TEST_PASSWORD, newPassword: NEW },
      [204],
    );
    expect(signedUp.cookieNamed('crm_device')).not.toBe(first);
    await signedUp.ok('POST', '/app/api/auth/sign-out', undefined, [204]);
    expect((await signIn(signedUp, email, NEW)).status).toBe(200);
    expectThrottled(
      await signIn(new WebClient(app.baseUrl, { from: freshClientAddress() }), email, NEW),
      /for this email/,
    );
  });

  /**
   * While a stranger keeps the account locked (one more guess each time the lock ends), `browser`
   * signs in with `password` every time, and a browser without its cookie is refused every time.
   */
  async function ownerSignsInWhileGuessing(email: string, browser: WebClient, password: string) {
    const attacker = await lockOut(email);
    const cookieless = new WebClient(app.baseUrl, { from: freshClientAddress() });
    for (let round = 1; round <= 3; round++) {
      expectThrottled(await signIn(attacker, email, WRONG(30 + round)), /for this email/);
      expectThrottled(await signIn(cookieless, email, password), /for this email/);
      const owner = await signIn(browser, email, password);
      expect(owner.status).toBe(200);
      expect(owner.body.user.email).toBe(email);
      await browser.ok('POST', '/app/api/auth/sign-out', undefined, [204]);
      expectThrottled(await signIn(cookieless, email, password), /for this email/);
      await age(15 * 60);
      expect((await signIn(attacker, email, WRONG(40 + round))).status).toBe(401);
    }
    expect(cookieless.cookieNamed('crm_session')).toBeUndefined();
  }

  it('a fresh browser that resets the password by the mailed link is a known browser: the stranger cannot lock it out', async () => {
    const email = `resetter-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    // The stranger locks the account; the owner, in a browser that never signed in, is refused too.
    await lockOut(email);
    const browser = new WebClient(app.baseUrl, { from: freshClientAddress() });
    expect(browser.cookieNamed('crm_device')).toBeUndefined();
    expectThrottled(await signIn(browser, email, TEST_PASSWORD), /for this email/);

    // The owner asks for a link, opens it in that browser and chooses a new password.
    await browser.ok('POST', '/app/api/auth/password-reset', { email }, [202]);
    const token = tokenIn(
      (await app.mail.waitForMessage({ to: email, subject: RESET_PASSWORD_SUBJECT })).Text,
      'reset-password',
    );
    const NEW = 'owner took it back 2024';
    await browser.ok('POST', '/app/api/auth/password-reset/complete', { token, newPassword: NEW }, [204]);
    expect(browser.cookieNamed('crm_device')).toBeDefined();
    expect(browser.cookieNamed('crm_session')).toBeUndefined();

    // The stranger goes on guessing (the reset forgot the old run, so they lock it again).
    await ownerSignsInWhileGuessing(email, browser, NEW);
  });

  it("a stranger's sign-up with someone else's address is not a known browser: after the owner resets, it meets the account's lock", async () => {
    const email = `pre-claimed-${++people}@example.com`;
    const { client: stranger } = await WebClient.signUpUnverified(app.baseUrl, { email });
    expect(stranger.cookieNamed('crm_device')).toBeUndefined();
    // The owner takes the address back by the mailed reset link, then the stranger guesses.
    const owner = new WebClient(app.baseUrl, { from: freshClientAddress() });
    await owner.ok('POST', '/app/api/auth/password-reset', { email }, [202]);
    const token = tokenIn(
      (await app.mail.waitForMessage({ to: email, subject: RESET_PASSWORD_SUBJECT })).Text,
      'reset-password',
    );
    await owner.ok(
      'POST',
      '/app/api/auth/password-reset/complete',
      { token, newPassword: 'owner took it back 2025' },
      [204],
    );
    for (let n = 1; n <= 5; n++) expect((await signIn(stranger, email, WRONG(n))).status).toBe(401);
    // The stranger's browser is counted as any other: the account's lock holds it.
    expectThrottled(await signIn(stranger, email, TEST_PASSWORD), /for this email/);
    expect((await signIn(owner, email, 'owner took it back 2025')).status).toBe(200);
  });

  it('a fresh browser that opens the verify-email link is a known browser', async () => {
    const email = `verifier-${++people}@example.com`;
    await WebClient.signUpUnverified(app.baseUrl, { email });
    // The link opened on another device than the one that signed up.
    const browser = new WebClient(app.baseUrl, { from: freshClientAddress() });
    await browser.ok('POST', '/app/api/auth/verify-email', {
      token: await verificationToken(app.baseUrl, email),
    });
    expect(browser.cookieNamed('crm_device')).toBeDefined();
    await ownerSignsInWhileGuessing(email, browser, TEST_PASSWORD);
  });

  it('a fresh browser that accepts an invitation by its link, as a new account, is a known browser', async () => {
    const { client: admin } = await WebClient.signUp(app.baseUrl, {
      email: `inviter-${++people}@example.com`,
    });
    const roles = (await admin.ok('GET', '/app/api/roles')).data as { id: string; name: string }[];
    const roleId = roles.find((role) => role.name === 'Member')!.id;
    const email = `invitee-${people}@example.com`;
    await admin.ok('POST', '/app/api/invitations', { email, roleId });
    const token = tokenIn(
      (await app.mail.waitForMessage({ to: email, subject: new RegExp(`^${INVITATION_SUBJECT_PREFIX}`) }))
        .Text,
      'accept-invitation',
    );
    const browser = new WebClient(app.baseUrl, { from: freshClientAddress() });
    await browser.ok(
      'POST',
      '/app/api/invitations/accept-new',
      { token, name: 'Invitee', password: TEST_PASSWORD },
      [201],
    );
    expect(browser.cookieNamed('crm_device')).toBeDefined();
    await browser.ok('POST', '/app/api/auth/sign-out', undefined, [204]);
    await ownerSignsInWhileGuessing(email, browser, TEST_PASSWORD);
  });

  it('a refused link sets no device cookie', async () => {
    const browser = new WebClient(app.baseUrl, { from: freshClientAddress() });
    const bogus = 'A'.repeat(43);
    expect((await browser.request('POST', '/app/api/auth/verify-email', { token: bogus })).status).toBe(400);
    expect(
      (
        await browser.request('POST', '/app/api/auth/password-reset/complete', {
          token: bogus,
          newPassword: 'some fine new password 5',
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await browser.request('POST', '/app/api/invitations/accept-new', {
          token: bogus,
          name: 'Nobody',
          password: 'some fine new password 5',
        })
      ).status,
    ).toBe(400);
    expect(browser.cookieNamed('crm_device')).toBeUndefined();
  });

  it('sets the device cookie HttpOnly, SameSite=Strict, for the sign-in routes only, for 365 days', async () => {
    const email = `attributes-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    });
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie();
    expect(cookies[0]).toMatch(/^crm_session=/);
    const device = cookies.find((cookie) => cookie.startsWith('crm_device='))!;
    const attributes = device
      .toLowerCase()
      .split(';')
      .map((part) => part.trim());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/app/api/auth']));
    expect(attributes).not.toContain('secure');
    const expires = Date.parse(attributes.find((part) => part.startsWith('expires='))!.slice(8));
    expect(Math.round((expires - Date.now()) / (24 * 60 * 60 * 1000))).toBe(365);
    // A refused sign-in sets no cookie at all.
    const wrong = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ email, password: 'not the password at all' }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });
});

describe('the device cookie is Secure whenever the session cookie is', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ PUBLIC_URL: 'https://crm.example.com' });
  });
  afterAll(() => app.close());

  it('carries Secure with an https PUBLIC_URL', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'secure-device@example.com' });
    const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.baseUrl },
      body: JSON.stringify({ email: 'secure-device@example.com', password: TEST_PASSWORD }),
    });
    expect(response.status).toBe(200);
    const device = response.headers.getSetCookie().find((cookie) => cookie.startsWith('crm_device='))!;
    expect(
      device
        .toLowerCase()
        .split(';')
        .map((part) => part.trim()),
    ).toContain('secure');
  });
});
