import { Agent, fetch } from 'undici';
import { Session } from '../../src/identity/sessions/session.entity';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Issue 24: password guessing at sign-in, from the attacker's side, on the real app and PostgreSQL.
 * Locks are per email (5 failures in a row from anywhere) and per client address (10 failures),
 * doubling from 1 minute with each further failure and capped at 15 minutes
 * (src/identity/sign-in/sign-in-throttle.ts). Time passing is played by ageing the stored windows.
 */

interface Answer {
  status: number;
  body: any;
  retryAfter?: number;
  setCookie: string | null;
}

const agents = new Map<string, Agent>();

/** POST /app/api/auth/sign-in from the loopback address `from` (Linux: all of 127/8 is this machine). */
async function signIn(
  app: TestApp,
  from: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  if (!agents.has(from)) agents.set(from, new Agent({ localAddress: from }));
  const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
    method: 'POST',
    dispatcher: agents.get(from),
    headers: { 'content-type': 'application/json', origin: app.baseUrl, ...headers },
    body: JSON.stringify({ email, password }),
  });
  const retryAfter = response.headers.get('retry-after');
  return {
    status: response.status,
    body: await response.json(),
    retryAfter: retryAfter === null ? undefined : Number(retryAfter),
    setCookie: response.headers.get('set-cookie'),
  };
}

/** Every stored sign-in window ends `seconds` sooner: as if that much time had passed. */
const age = (app: TestApp, seconds: number) =>
  app.dataSource.query(`UPDATE rate_limits SET expire = expire - $1 WHERE key LIKE 'sign-in-%'`, [
    seconds * 1000,
  ]);

const sessions = (app: TestApp) => app.dataSource.manager.count(Session);

/** A refusal of the throttle: 429 rate_limit, retryable, with Retry-After within (lock − 10 s, lock]. */
function expectLocked(answer: Answer, lockSeconds: number): void {
  expect(answer.status).toBe(429);
  expect(answer.body.error).toMatchObject({
    kind: 'rate_limit',
    retryable: true,
    issues: [{ customCode: 'signInThrottled' }],
  });
  expect(answer.retryAfter).toBeGreaterThan(lockSeconds - 10);
  expect(answer.retryAfter).toBeLessThanOrEqual(lockSeconds);
  expect(answer.setCookie).toBeNull();
}

const expectWrong = (answer: Answer) => {
  expect(answer.status).toBe(401);
  expect(answer.body.error.issues[0].customCode).toBe('invalidCredentials');
};

describe('sign-in throttle', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await Promise.all([...agents.values()].map((agent) => agent.close()));
    await app.close();
  });

  it('locks an account after 5 wrong passwords: then even the right one is refused until the lock ends', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'victim1@example.com' });
    await WebClient.signUp(app.baseUrl, { email: 'bystander1@example.com' });
    const attacker = freshClientAddress();
    const victim = freshClientAddress();

    for (let guess = 1; guess <= 5; guess++) {
      expectWrong(await signIn(app, attacker, 'victim1@example.com', `guess number ${guess} xx`));
    }
    const before = await sessions(app);
    const refused = await signIn(app, attacker, 'victim1@example.com', 'guess number 6 xx');
    expectLocked(refused, 60);
    expect(refused.body.error.issues[0].message).toMatch(
      /^Too many failed sign-ins for this email\. Try again/,
    );
    // The right password, from the attacker's address or the victim's own: refused, no session made.
    expectLocked(await signIn(app, attacker, 'victim1@example.com', TEST_PASSWORD), 60);
    expectLocked(await signIn(app, victim, 'VICTIM1@example.com ', TEST_PASSWORD), 60);
    expect(await sessions(app)).toBe(before);

    // Another account, even from the attacker's address (5 failures there, under its 10), is unaffected.
    expect((await signIn(app, attacker, 'bystander1@example.com', TEST_PASSWORD)).status).toBe(200);
    expect((await signIn(app, freshClientAddress(), 'bystander1@example.com', TEST_PASSWORD)).status).toBe(
      200,
    );

    // The lock ends: the right password signs in, and the run of failures starts again from nothing.
    await age(app, 60);
    expect((await signIn(app, victim, 'victim1@example.com', TEST_PASSWORD)).status).toBe(200);
    for (let guess = 1; guess <= 4; guess++) {
      expectWrong(await signIn(app, attacker, 'victim1@example.com', `second run ${guess} xxx`));
    }
  });

  it('doubles the lock with each further failure; refused attempts count for nothing and lengthen nothing', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'victim2@example.com' });
    const attacker = freshClientAddress();
    for (let guess = 1; guess <= 5; guess++) {
      expectWrong(await signIn(app, attacker, 'victim2@example.com', `guess number ${guess} xx`));
    }
    // 20 attempts while locked: all refused, and the lock is still the first one's minute.
    for (let i = 0; i < 20; i++) {
      expectLocked(await signIn(app, attacker, 'victim2@example.com', `while locked ${i} xxxx`), 60);
    }
    await age(app, 60);
    // The 6th failure (not the 26th attempt) locks for 2 minutes.
    expectWrong(await signIn(app, attacker, 'victim2@example.com', 'guess number 6 xx'));
    expectLocked(await signIn(app, attacker, 'victim2@example.com', TEST_PASSWORD), 120);
  });

  it('a lock holds to its end even when the run of failures that started it is forgotten first', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'victim7@example.com' });
    const attacker = freshClientAddress();
    for (let guess = 1; guess <= 5; guess++) {
      expectWrong(await signIn(app, attacker, 'victim7@example.com', `guess number ${guess} xx`));
    }
    // The failures' window (24 h from the first) ends while the minute's lock still runs.
    await app.dataSource.query(
      `UPDATE rate_limits SET expire = $1 WHERE key LIKE 'sign-in-account-failures%' OR key LIKE 'sign-in-address-failures%'`,
      [Date.now() - 1000],
    );
    expectLocked(await signIn(app, attacker, 'victim7@example.com', TEST_PASSWORD), 60);
    expectLocked(await signIn(app, attacker, 'victim7@example.com', 'one more guess xx'), 60);
  });

  it('100 guesses at once: only 5 passwords are checked, the rest are refused, and the account is locked', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'victim3@example.com' });
    const attacker = freshClientAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        signIn(app, attacker, 'victim3@example.com', `burst ${i} xxxxxxxx`),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(answer.retryAfter).toBeGreaterThan(0);
      expect(answer.retryAfter).toBeLessThanOrEqual(60);
    }
    expectLocked(await signIn(app, freshClientAddress(), 'victim3@example.com', TEST_PASSWORD), 60);
  });

  it('many addresses guessing one account lock it for at most 15 minutes at a time, then the owner signs in', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'victim4@example.com' });
    const guess = (n: number) =>
      signIn(app, freshClientAddress(), 'victim4@example.com', `botnet guess ${n} xx`);
    for (let n = 1; n <= 5; n++) expectWrong(await guess(n));
    // Every further failure doubles the lock, from a new address each time, up to the cap.
    const locks: number[] = [];
    for (let n = 6; n <= 12; n++) {
      const locked = await guess(n);
      expect(locked.status).toBe(429);
      locks.push(locked.retryAfter!);
      await age(app, locked.retryAfter!);
      expectWrong(await guess(n));
    }
    const rounded = locks.map((seconds) => Math.round(seconds / 60));
    expect(rounded).toEqual([1, 2, 4, 8, 15, 15, 15]);
    expect(Math.max(...locks)).toBeLessThanOrEqual(15 * 60);

    // However many addresses keep trying, the lock stays 15 minutes from the last failure.
    for (let n = 0; n < 30; n++) expectLocked(await guess(100 + n), 15 * 60);
    await age(app, 15 * 60);
    const owner = await signIn(app, freshClientAddress(), 'victim4@example.com', TEST_PASSWORD);
    expect(owner.status).toBe(200);
    expect(owner.setCookie).toMatch(/^crm_session=/);
  });

  it('guesses at the current password (a stolen session) count against the account like failed sign-ins', async () => {
    const { client: stolen } = await WebClient.signUp(app.baseUrl, { email: 'stolen@example.com' });
    const change = (currentPassword: string) =>
      stolen.request<any>('POST', '/app/api/auth/password', {
        currentPassword,
        newPassword: 'the thief wants this one',
      });
    for (let guess = 1; guess <= 5; guess++) {
      const wrong = await change(`guess number ${guess} xx`);
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.issues[0].customCode).toBe('currentPasswordWrong');
    }
    // Now even the right current password is refused, and sign-in for the account waits too.
    const refused = await change(TEST_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body.error.issues[0].customCode).toBe('signInThrottled');
    expectLocked(await signIn(app, freshClientAddress(), 'stolen@example.com', TEST_PASSWORD), 60);
    // Nothing changed: once the lock ends, the old password signs in and the thief's does not.
    await age(app, 60);
    expect((await signIn(app, freshClientAddress(), 'stolen@example.com', TEST_PASSWORD)).status).toBe(200);
    expectWrong(await signIn(app, freshClientAddress(), 'stolen@example.com', 'the thief wants this one'));
  });

  it('locks an address after 10 failures over any emails, known or not; other addresses are unaffected', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'sprayed@example.com' });
    const sprayer = freshClientAddress();
    for (let n = 1; n <= 10; n++) {
      // One guess per email: no account reaches its own limit.
      expectWrong(
        await signIn(
          app,
          sprayer,
          n === 1 ? 'sprayed@example.com' : `nobody${n}@example.com`,
          'Summer2024!!Summer',
        ),
      );
    }
    const refused = await signIn(app, sprayer, 'nobody11@example.com', 'Summer2024!!Summer');
    expectLocked(refused, 60);
    expect(refused.body.error.issues[0].message).toMatch(/^Too many failed sign-ins from this address\./);
    // Even a right password from that address waits; from another it signs in.
    expectLocked(await signIn(app, sprayer, 'sprayed@example.com', TEST_PASSWORD), 60);
    expect((await signIn(app, freshClientAddress(), 'sprayed@example.com', TEST_PASSWORD)).status).toBe(200);
  });

  it('a made-up X-Forwarded-For does not make a new address without TRUST_PROXY', async () => {
    const forger = freshClientAddress();
    for (let n = 1; n <= 10; n++) {
      expectWrong(
        await signIn(app, forger, `forged${n}@example.com`, 'Summer2024!!Summer', {
          'x-forwarded-for': `198.51.100.${n}`,
        }),
      );
    }
    expectLocked(
      await signIn(app, forger, 'forged11@example.com', 'Summer2024!!Summer', {
        'x-forwarded-for': '198.51.100.77',
      }),
      60,
    );
  });
});

describe('sign-in throttle behind a trusted proxy (TRUST_PROXY=true)', () => {
  let app: TestApp;
  const proxy = '127.0.0.1';

  beforeAll(async () => {
    app = await startTestApp({ TRUST_PROXY: 'true' });
  });
  afterAll(() => app.close());

  it("counts each client by the address the proxy gives, not by the proxy's own or what the client wrote", async () => {
    await WebClient.signUp(app.baseUrl, { email: 'behind@example.com' });
    // The proxy appends the address it saw; what the client wrote before it is ignored.
    const from = (client: string, written = '') => ({
      'x-forwarded-for': written ? `${written}, ${client}` : client,
    });
    for (let n = 1; n <= 10; n++) {
      expectWrong(
        await signIn(
          app,
          proxy,
          `spray${n}@example.com`,
          'Summer2024!!Summer',
          from('203.0.113.9', `10.9.9.${n}`),
        ),
      );
    }
    expectLocked(await signIn(app, proxy, 'spray11@example.com', 'x', from('203.0.113.9', '10.9.9.99')), 60);
    // Another client behind the same proxy is not held by it.
    expect((await signIn(app, proxy, 'behind@example.com', TEST_PASSWORD, from('203.0.113.10'))).status).toBe(
      200,
    );
  });
});
