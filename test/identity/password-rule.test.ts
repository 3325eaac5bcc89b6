import { randomBytes, scryptSync } from 'node:crypto';
import { addMember } from '../../src/identity/members.service';
import { Role } from '../../src/identity/role.entity';
import { User } from '../../src/identity/user.entity';
import { invitationTokenSentBy } from '../helpers/mailboxes';
import { passwordProblem } from '../../src/shared/credentials/password.rules';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Issue 24: the password rule (src/shared/credentials/password.rules.ts, after NIST SP 800-63B-4) where people
 * choose a password over HTTP (sign-up, change password, accepting an invitation) and where the
 * service makes one (the operator CLI's add-member),
 * and old passwords stored before it.
 */
describe('password rule on the real app', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const users = () => app.dataSource.manager.count(User);
  const signInStatus = async (email: string, password: string) =>
    (
      await new WebClient(app.baseUrl, { from: freshClientAddress() }).request(
        'POST',
        '/app/api/auth/sign-in',
        {
          email,
          password,
        },
      )
    ).status;

  it.each([
    ['12345678', 'passwordTooShort'],
    ['password12345678', 'passwordTooCommon'],
    ['qwertyuiopqwertyuiop', 'passwordTooCommon'],
    ['ada.lovelace@example.com', 'passwordContainsEmail'],
    ['Ada.Lovelace-1815-1852', 'passwordContainsEmail'],
    ['Lovelace!!1815!!', 'passwordContainsName'],
  ])('sign-up refuses %j with 400 %s and creates nobody', async (password, customCode) => {
    const before = await users();
    const refused = await new WebClient(app.baseUrl, { from: freshClientAddress() }).request<any>(
      'POST',
      '/app/api/auth/sign-up',
      { name: 'Ada Lovelace', email: 'ada.lovelace@example.com', password, workspaceName: 'Engines' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      kind: 'validation',
      issues: [{ customCode, path: ['password'] }],
    });
    expect(refused.body.error.issues[0].message).toBe(
      passwordProblem(password, { email: 'ada.lovelace@example.com', name: 'Ada Lovelace' })!.message,
    );
    expect(await users()).toBe(before);
  });

  it('sign-up takes a 15-character passphrase in any script, and signs in with it typed another way', async () => {
    const password = 'Cafe\u0301 au lait, s’il vous plaît';
    await new WebClient(app.baseUrl, { from: freshClientAddress() }).ok('POST', '/app/api/auth/sign-up', {
      name: 'Émile',
      email: 'emile@example.com',
      password,
      workspaceName: 'Café',
    });
    expect(await signInStatus('emile@example.com', 'Caf\u00e9 au lait, s’il vous plaît')).toBe(200);
  });

  it.each([
    ['a short one', 'too short', 'passwordTooShort'],
    ['a common one with digits', 'iloveyou12345678', 'passwordTooCommon'],
    ['their own email', 'changer@example.com', 'passwordContainsEmail'],
    ['their own name, padded', '***Marguerite2024***', 'passwordContainsName'],
  ])(
    'change password refuses %s: 400, the old password stands, no session ends',
    async (_, newPassword, customCode) => {
      const email = 'changer@example.com';
      if (!(await app.dataSource.manager.existsBy(User, { email }))) {
        await WebClient.signUp(app.baseUrl, { email, name: 'Marguerite Perey' });
      }
      const { client: here } = await WebClient.signIn(app.baseUrl, email, TEST_PASSWORD);
      const { client: elsewhere } = await WebClient.signIn(app.baseUrl, email, TEST_PASSWORD);
      const stored = (await app.dataSource.manager.findOneByOrFail(User, { email })).passwordHash;

      const refused = await here.request<any>('POST', '/app/api/auth/password', {
        currentPassword: TEST_PASSWORD,
        newPassword,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        kind: 'validation',
        issues: [{ customCode, path: ['newPassword'] }],
      });
      expect((await app.dataSource.manager.findOneByOrFail(User, { email })).passwordHash).toBe(stored);
      expect((await elsewhere.request('GET', '/app/api/session')).status).toBe(200);
      expect(await signInStatus(email, newPassword)).toBe(401);
    },
  );

  it('an invited person chooses their own password by the link, under the rule with their own email and name', async () => {
    const { client: admin } = await WebClient.signUp(app.baseUrl, { email: 'boss@example.com' });
    const roles = (await admin.ok('GET', '/app/api/roles')).data as { id: string; name: string }[];
    const member = roles.find((role) => role.name === 'Member')!;
    const email = 'new.person@example.com';
    const token = await invitationTokenSentBy(app.baseUrl, email, () =>
      admin.ok('POST', '/app/api/invitations', { email, roleId: member.id }),
    );
    const before = await users();
    for (const [password, customCode] of [
      ['too short', 'passwordTooShort'],
      ['password12345678', 'passwordTooCommon'],
      ['new.person@example.com', 'passwordContainsEmail'],
      ['***Hypatia2024***', 'passwordContainsName'],
    ]) {
      const refused = await new WebClient(app.baseUrl).request<any>(
        'POST',
        '/app/api/invitations/accept-new',
        {
          token,
          name: 'Hypatia Alexandrina',
          password,
        },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        kind: 'validation',
        issues: [{ customCode, path: ['password'] }],
      });
    }
    expect(await users()).toBe(before);
    await new WebClient(app.baseUrl).ok('POST', '/app/api/invitations/accept-new', {
      token,
      name: 'Hypatia Alexandrina',
      password: TEST_PASSWORD,
    });
    expect(await signInStatus(email, TEST_PASSWORD)).toBe(200);
  });

  it("the passwords the operator CLI's add-member generates follow the rule, with the member's own email and name", async () => {
    const { session } = await WebClient.signUp(app.baseUrl, { email: 'operator-boss@example.com' });
    const workspaceId = session.workspace.id as string;
    const member = await app.dataSource.manager.findOneByOrFail(Role, { workspaceId, name: 'Member' });
    for (let n = 0; n < 5; n++) {
      const email = `new${n}@example.com`;
      const added = await addMember(app.dataSource, workspaceId, {
        email,
        name: `New Person ${n}`,
        roleId: member.id,
      });
      expect(passwordProblem(added.temporaryPassword!, { email, name: `New Person ${n}` })).toBeUndefined();
      expect(await signInStatus(email, added.temporaryPassword!)).toBe(200);
    }
  });

  it('a password stored before the rule (short, not normalised) still signs in, and is rehashed when proven', async () => {
    const { session } = await WebClient.signUp(app.baseUrl, { email: 'old@example.com' });
    const salt = randomBytes(16);
    const legacy = `scrypt$${salt.toString('hex')}$${scryptSync('password-123', salt, 64).toString('hex')}`;
    await app.dataSource.manager.update(User, { id: session.user.id }, { passwordHash: legacy });

    expect(await signInStatus('old@example.com', 'password-124')).toBe(401);
    expect(
      (await app.dataSource.manager.findOneByOrFail(User, { email: 'old@example.com' })).passwordHash,
    ).toBe(legacy);
    expect(await signInStatus('old@example.com', 'password-123')).toBe(200);
    const upgraded = (await app.dataSource.manager.findOneByOrFail(User, { email: 'old@example.com' }))
      .passwordHash;
    expect(upgraded).toMatch(/^scrypt-nfkc\$/);
    expect(await signInStatus('old@example.com', 'password-123')).toBe(200);
  });
});
