import { User } from '../../src/identity/user.entity';
import * as passwords from '../../src/identity/sign-in/passwords';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

// The real password functions, watched: which hash each sign-in checks against, and how often.
jest.mock('../../src/identity/sign-in/passwords', () => {
  const actual = jest.requireActual('../../src/identity/sign-in/passwords');
  return {
    ...actual,
    verifyPassword: jest.fn(actual.verifyPassword),
    hashPassword: jest.fn(actual.hashPassword),
  };
});
const verifyPassword = passwords.verifyPassword as jest.MockedFunction<typeof passwords.verifyPassword>;
const hashPassword = passwords.hashPassword as jest.MockedFunction<typeof passwords.hashPassword>;

/**
 * Issue 24: whether an account exists must not show in sign-in's answer or in the work behind it
 * (and so in its time). Checked by what runs, not by a stopwatch: an unknown email runs the same one
 * scrypt check, against a dummy hash made like every real one, and gets the same refusal.
 */
describe('sign-in does not tell whether an account exists', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());
  beforeEach(() => jest.clearAllMocks());

  const signIn = (email: string, password: string) =>
    new WebClient(app.baseUrl, { from: freshClientAddress() }).request<any>('POST', '/app/api/auth/sign-in', {
      email,
      password,
    });

  it('an unknown email runs one scrypt check against the dummy hash, and answers as a wrong password', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'known@example.com' });
    const stored = (await app.dataSource.manager.findOneByOrFail(User, { email: 'known@example.com' }))
      .passwordHash;
    jest.clearAllMocks();

    const wrong = await signIn('known@example.com', 'not the password at all');
    expect(verifyPassword.mock.calls).toEqual([['not the password at all', stored]]);

    jest.clearAllMocks();
    const unknown = await signIn('nobody@example.com', 'not the password at all');
    const dummy = await passwords.dummyPasswordHash();
    expect(verifyPassword.mock.calls).toEqual([['not the password at all', dummy]]);
    // The same scheme, salt and key length as a real hash: the same scrypt work.
    const shape = (hash: string) => hash.split('$').map((part, i) => (i === 0 ? part : part.length));
    expect(shape(dummy)).toEqual(shape(stored));
    expect(dummy).not.toBe(stored);

    expect(unknown).toEqual(wrong);
    expect(unknown).toEqual({
      status: 401,
      body: {
        error: {
          kind: 'authentication',
          issues: [
            {
              code: 'authentication',
              path: [],
              message: 'The email or password is wrong.',
              customCode: 'invalidCredentials',
            },
          ],
        },
      },
    });
  });

  it('a throttled attempt checks no password at all', async () => {
    for (let n = 1; n <= 5; n++) await signIn('locked@example.com', `guess number ${n} xxx`);
    jest.clearAllMocks();
    const refused = await signIn('locked@example.com', 'guess number 6 xxx');
    expect(refused.status).toBe(429);
    expect(verifyPassword).not.toHaveBeenCalled();
  });

  it('sign-up hashes the password before answering that an email is taken', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'taken@example.com' });
    jest.clearAllMocks();
    const taken = await new WebClient(app.baseUrl, { from: freshClientAddress() }).request<any>(
      'POST',
      '/app/api/auth/sign-up',
      { name: 'Again', email: 'taken@example.com', password: TEST_PASSWORD, workspaceName: 'Again' },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error.issues[0].customCode).toBe('emailTaken');
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });
});
