import { ACCOUNT_LOCKED_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { freePort } from '../helpers/ports';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Issue 34, "a lockout an attacker cannot aim", item 2, from the attacker's side over HTTP with the
 * real mail catcher: when a stranger's wrong passwords first lock an account, its owner gets one
 * e-mail saying so, with the page to choose a new password; however many guesses follow, no more
 * than one an hour; an email without an account gets nothing, and the answers do not tell the two
 * apart. Time passing is played by ageing the stored windows, as the other lockout tests do.
 */
describe('the owner hears by e-mail when failed sign-ins lock the account', () => {
  let app: TestApp;
  let people = 0;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const signIn = (client: WebClient, email: string, password: string) =>
    client.request<any>('POST', '/app/api/auth/sign-in', { email, password });
  const stranger = () => new WebClient(app.baseUrl, { from: freshClientAddress() });
  const ageLocks = (seconds: number) =>
    app.dataSource.query(`UPDATE rate_limits SET expire = expire - $1 WHERE key LIKE 'sign-in-%'`, [
      seconds * 1000,
    ]);
  const ageNotices = (seconds: number) =>
    app.dataSource.query(
      `UPDATE rate_limits SET expire = expire - $1 WHERE key LIKE 'account-lock-notice%'`,
      [seconds * 1000],
    );
  const noticesTo = async (email: string) =>
    (await app.mail.messages()).filter(
      (message) =>
        message.Subject === ACCOUNT_LOCKED_SUBJECT && message.To.some((to) => to.Address === email),
    ).length;
  /** Gives a notice that should not come every chance to arrive (it is sent after the answer). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

  /** Five wrong passwords lock the email; the sixth attempt is refused. The answers, as a client sees them. */
  async function lockOut(email: string) {
    const attacker = stranger();
    const answers = [];
    for (let n = 1; n <= 6; n++) answers.push(await signIn(attacker, email, `wrong guess ${n} here`));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
    return answers;
  }

  it('mails the owner once when guessing locks the account, with the page to choose a new password', async () => {
    const email = `victim-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    await lockOut(email);

    const notice = await app.mail.waitForMessage({ to: email, subject: ACCOUNT_LOCKED_SUBJECT });
    expect(notice.Text).toContain(`${app.baseUrl}/forgot-password`);
    expect(notice.Text).toMatch(/wrong passwords/);
    // No token in it: the page asks for a reset link as anyone can.
    expect(notice.Text).not.toMatch(/token=/);

    // The stranger goes on: refused guesses from many addresses, and one more each time the lock ends.
    for (let round = 1; round <= 4; round++) {
      for (let n = 0; n < 5; n++)
        expect((await signIn(stranger(), email, `more ${round} ${n}`)).status).toBe(429);
      await ageLocks(15 * 60);
      expect((await signIn(stranger(), email, `after lock ${round}`)).status).toBe(401);
    }
    await settle();
    expect(await noticesTo(email)).toBe(1);
  });

  it('sends at most one an hour, even when the owner signs in between and a new run of guesses locks it again', async () => {
    const email = `twice-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    await lockOut(email);
    await app.mail.waitForMessage({ to: email, subject: ACCOUNT_LOCKED_SUBJECT });

    // The lock ends, the owner signs in (the run of failures is over), and the stranger starts again.
    await ageLocks(15 * 60);
    expect((await signIn(stranger(), email, TEST_PASSWORD)).status).toBe(200);
    await lockOut(email);
    await settle();
    expect(await noticesTo(email)).toBe(1);

    // An hour later, a new run that locks the account is news again.
    await ageNotices(60 * 60);
    await ageLocks(15 * 60);
    expect((await signIn(stranger(), email, TEST_PASSWORD)).status).toBe(200);
    await lockOut(email);
    await app.mail.waitForMessage({ to: email, subject: ACCOUNT_LOCKED_SUBJECT });
    await settle();
    expect(await noticesTo(email)).toBe(2);
  });

  it('mails nobody for an email without an account, and answers exactly as for one with an account', async () => {
    const known = `known-${++people}@example.com`;
    const unknown = `nobody-${people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email: known });

    const forKnown = await lockOut(known);
    const forUnknown = await lockOut(unknown);
    // The same answers (the wait a 429 names may differ by the second the two runs took).
    const shown = (answers: { status: number; body: unknown }[]) =>
      JSON.stringify(answers).replace(/\d+ seconds/g, 'N seconds');
    expect(shown(forUnknown)).toEqual(shown(forKnown));

    await app.mail.waitForMessage({ to: known, subject: ACCOUNT_LOCKED_SUBJECT });
    await settle();
    const toUnknown = (await app.mail.messages()).filter((message) =>
      message.To.some((to) => to.Address === unknown),
    );
    expect(toUnknown).toEqual([]);
    expect(await noticesTo(known)).toBe(1);
  });

  it('wrong current passwords on change password (a stolen session guessing) that lock the account mail the owner too', async () => {
    const email = `session-${++people}@example.com`;
    const { client: thief } = await WebClient.signUp(app.baseUrl, { email });
    for (let n = 1; n <= 5; n++) {
      const answer = await thief.request<any>('POST', '/app/api/auth/password', {
        currentPassword: `not it ${n} at all`,
        newPassword: 'the thief wants this one',
      });
      expect(answer.status).toBe(403);
    }
    expect((await signIn(stranger(), email, TEST_PASSWORD)).status).toBe(429);
    const notice = await app.mail.waitForMessage({ to: email, subject: ACCOUNT_LOCKED_SUBJECT });
    expect(notice.Text).toContain(`${app.baseUrl}/forgot-password`);
    await settle();
    expect(await noticesTo(email)).toBe(1);
  });

  it('a wrong password before the lock, or a right one at the fifth attempt, mails nothing', async () => {
    const email = `typo-${++people}@example.com`;
    await WebClient.signUp(app.baseUrl, { email });
    const owner = stranger();
    for (let n = 1; n <= 4; n++) expect((await signIn(owner, email, `my typo ${n} xx`)).status).toBe(401);
    // The fifth attempt would take the lock; the right password releases it instead.
    expect((await signIn(owner, email, TEST_PASSWORD)).status).toBe(200);
    await settle();
    expect(await noticesTo(email)).toBe(0);
  });
});

describe('the lock notice while the mail server is down', () => {
  let app: TestApp;

  beforeAll(async () => {
    // Nothing listens there: every message is refused at connect.
    app = await startTestApp({ MAIL_URL: `smtp://127.0.0.1:${await freePort()}` });
  });
  afterAll(() => app.close());

  it('leaves the sign-in answers as they are', async () => {
    const email = 'unreachable-mail@example.com';
    await WebClient.signUpUnverified(app.baseUrl, { email });
    await app.dataSource.query(`UPDATE users SET email_verified_at = now() WHERE email = $1`, [email]);
    const attacker = new WebClient(app.baseUrl, { from: freshClientAddress() });
    const statuses = [];
    for (let n = 1; n <= 8; n++) {
      statuses.push(
        (await attacker.request('POST', '/app/api/auth/sign-in', { email, password: `bad ${n} guess` }))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The service goes on: the lock ends and the owner signs in.
    await app.dataSource.query(`UPDATE rate_limits SET expire = expire - $1 WHERE key LIKE 'sign-in-%'`, [
      15 * 60 * 1000,
    ]);
    const owner = new WebClient(app.baseUrl, { from: freshClientAddress() });
    expect(
      (await owner.request('POST', '/app/api/auth/sign-in', { email, password: TEST_PASSWORD })).status,
    ).toBe(200);
  });
});
