import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, TEST_PASSWORD, WebClient } from '../helpers/web-client';

/**
 * A signed-in person's own account: changing the password (POST /app/api/auth/password) and
 * starting another workspace (POST /app/api/workspaces), both from the attacker's side too
 * (docs/app-api.md).
 */
describe('account: change password and create another workspace', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const OLD = TEST_PASSWORD;
  const NEW = 'a much longer passphrase';

  const signInStatus = async (email: string, password: string) =>
    (await new WebClient(app.baseUrl).request('POST', '/app/api/auth/sign-in', { email, password })).status;

  describe('change password', () => {
    it('checks the current password, keeps this session and signs out the other ones', async () => {
      const { client: here } = await WebClient.signUp(app.baseUrl, { email: 'pw@example.com' });
      const { client: elsewhere } = await WebClient.signIn(app.baseUrl, 'pw@example.com', OLD);

      await here.ok('POST', '/app/api/auth/password', { currentPassword: OLD, newPassword: NEW }, [204]);

      expect((await here.request('GET', '/app/api/session')).status).toBe(200);
      const ended = await elsewhere.request<any>('GET', '/app/api/session');
      expect(ended.status).toBe(401);
      expect(ended.body.error.issues[0].customCode).toBe('notSignedIn');
      expect(await signInStatus('pw@example.com', OLD)).toBe(401);
      expect(await signInStatus('pw@example.com', NEW)).toBe(200);
    });

    it('refuses a wrong current password with 403 currentPasswordWrong and changes nothing', async () => {
      const { client: here } = await WebClient.signUp(app.baseUrl, { email: 'wrong@example.com' });
      const { client: elsewhere } = await WebClient.signIn(app.baseUrl, 'wrong@example.com', OLD);

      const refused = await here.request<any>('POST', '/app/api/auth/password', {
        currentPassword: 'not-my-password',
        newPassword: NEW,
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        kind: 'authorization',
        issues: [{ customCode: 'currentPasswordWrong', path: ['currentPassword'] }],
      });
      // Still signed in here (a 401 would make the web app sign out) and elsewhere; the old password stands.
      expect((await here.request('GET', '/app/api/session')).status).toBe(200);
      expect((await elsewhere.request('GET', '/app/api/session')).status).toBe(200);
      expect(await signInStatus('wrong@example.com', OLD)).toBe(200);
      expect(await signInStatus('wrong@example.com', NEW)).toBe(401);
    });

    it.each([
      ['too short', 'short', 'passwordTooShort'],
      ['too long', 'x'.repeat(201), 'passwordTooLong'],
    ])(
      'refuses a new password that is %s with the sign-up rule (400 validation)',
      async (_, newPassword, code) => {
        const email = `weak-${code}@example.com`;
        const { client } = await WebClient.signUp(app.baseUrl, { email });
        const refused = await client.request<any>('POST', '/app/api/auth/password', {
          currentPassword: OLD,
          newPassword,
        });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({
          kind: 'validation',
          issues: [{ customCode: code, path: ['newPassword'] }],
        });
        expect(await signInStatus(email, OLD)).toBe(200);

        // Sign-up applies the same rule.
        const signUp = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/sign-up', {
          name: 'Weak',
          email: `signup-${email}`,
          password: newPassword,
          workspaceName: 'Weak',
        });
        expect(signUp.status).toBe(400);
        expect(signUp.body.error.issues[0]).toMatchObject({ customCode: code, path: ['password'] });
      },
    );

    it('refuses without a session (401) and from another origin (403)', async () => {
      await WebClient.signUp(app.baseUrl, { email: 'anon@example.com' });
      const anonymous = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/password', {
        currentPassword: OLD,
        newPassword: NEW,
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.issues[0].customCode).toBe('notSignedIn');

      const { client } = await WebClient.signUp(app.baseUrl, { email: 'csrf@example.com' });
      const cookie = (client as unknown as { cookie: string }).cookie;
      const crossSite = await fetch(`${app.baseUrl}/app/api/auth/password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: 'https://evil.example' },
        body: JSON.stringify({ currentPassword: OLD, newPassword: NEW }),
      });
      expect(crossSite.status).toBe(403);
      expect(await signInStatus('csrf@example.com', OLD)).toBe(200);
    });

    it("another user's session cannot change yours: the route acts only on the session's own user", async () => {
      const victimPassword = 'victim-secret-1';
      await new WebClient(app.baseUrl).ok('POST', '/app/api/auth/sign-up', {
        name: 'Victim',
        email: 'victim@example.com',
        password: victimPassword,
        workspaceName: 'Victim Co',
      });
      const { client: attacker } = await WebClient.signUp(app.baseUrl, { email: 'attacker@example.com' });

      // The victim's password, and a body naming the victim: checked against the attacker's own account.
      const refused = await attacker.request<any>('POST', '/app/api/auth/password', {
        currentPassword: victimPassword,
        newPassword: NEW,
        email: 'victim@example.com',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.issues[0].customCode).toBe('currentPasswordWrong');
      expect(await signInStatus('victim@example.com', victimPassword)).toBe(200);
      expect(await signInStatus('victim@example.com', NEW)).toBe(401);
      expect(await signInStatus('attacker@example.com', OLD)).toBe(200);
    });
  });

  describe('create another workspace', () => {
    it('makes the creator its Admin, switches the session, and starts it as sign-up starts the first', async () => {
      const first = await WebClient.signUp(app.baseUrl, {
        email: 'founder@example.com',
        workspaceName: 'One',
      });
      const { client } = first;
      await client.ok('POST', '/app/api/onboarding/complete');

      const created = await client.ok('POST', '/app/api/workspaces', { name: '  Two  ' }, [201]);
      expect(created).toMatchObject({
        workspace: { name: 'Two', planState: first.session.workspace.planState },
        role: { name: 'Admin', isAdmin: true },
        permissions: first.session.permissions,
        member: { status: 'active' },
        onboardingPending: true,
      });
      expect(created.workspace.id).not.toBe(first.session.workspace.id);
      expect(created.workspaces.map((w: { name: string }) => w.name)).toEqual(['One', 'Two']);
      // The session now works in the new workspace.
      expect((await client.ok('GET', '/app/api/session')).workspace.id).toBe(created.workspace.id);

      // Same built-in roles and the same built-in record model as a signed-up workspace.
      const rolesOf = async () =>
        (await client.ok('GET', '/app/api/roles')).data.map(({ id: _id, ...role }: { id: string }) => role);
      const modelOf = async () =>
        (await client.ok('POST', '/app/api/model/discover', {})).types.map(
          ({ name, builtin, fieldCount }: { name: string; builtin: unknown; fieldCount: number }) => ({
            name,
            builtin,
            fieldCount,
          }),
        );
      const newRoles = await rolesOf();
      const newModel = await modelOf();
      expect(newModel.length).toBeGreaterThan(0);
      await client.ok('POST', '/app/api/session/workspace', { workspaceId: first.session.workspace.id });
      expect(await rolesOf()).toEqual(newRoles);
      expect(await modelOf()).toEqual(newModel);
    });

    it("keeps the new workspace's data apart: the old one's keys and webhooks are not there", async () => {
      const { client, session } = await WebClient.signUp(app.baseUrl, { email: 'apart@example.com' });
      const key = await client.ok('POST', '/app/api/api-keys', { name: 'Old workspace key' });
      const webhook = await client.ok('POST', '/app/api/webhooks', {
        url: 'https://receiver.example/old',
        events: ['messaging.message.received'],
      });
      expect((await client.ok('GET', '/app/api/webhooks')).data).toHaveLength(1);

      const created = await client.ok('POST', '/app/api/workspaces', { name: 'Fresh' }, [201]);
      expect(created.workspace.id).not.toBe(session.workspace.id);
      expect((await client.ok('GET', '/app/api/api-keys')).data).toEqual([]);
      expect((await client.ok('GET', '/app/api/webhooks')).data).toEqual([]);
      expect((await client.ok('GET', '/app/api/webhooks/deliveries')).data).toEqual([]);
      const foreign = await client.request<any>('GET', `/app/api/webhooks/${webhook.id}`);
      expect(foreign.status).toBe(404);
      expect((await client.request('DELETE', `/app/api/api-keys/${key.apiKey.id}`)).status).toBe(404);

      // The old key still acts only in the old workspace.
      const me = await fetch(`${app.baseUrl}/api/v1/me`, { headers: { 'x-api-key': key.value } });
      expect(((await me.json()) as { workspace: { id: string } }).workspace.id).toBe(session.workspace.id);
    });

    it('a member without admin rights where they are becomes Admin of the workspace they create', async () => {
      const host = await WebClient.signUp(app.baseUrl, { email: 'host2@example.com' });
      const viewer = (await host.client.ok('GET', '/app/api/roles')).data.find(
        (role: { name: string }) => role.name === 'Viewer',
      );
      const { client: guest } = await addMemberByInvitation(app.baseUrl, host.client, {
        email: 'guest2@example.com',
        roleId: viewer.id,
      });

      const created = await guest.ok('POST', '/app/api/workspaces', { name: 'Mine' }, [201]);
      expect(created.role.name).toBe('Admin');
      // Nothing changed in the host's workspace.
      const members = (await host.client.ok('GET', '/app/api/members')).data;
      expect(members.find((m: { email: string }) => m.email === 'guest2@example.com').roleName).toBe(
        'Viewer',
      );
    });

    it('needs a signed-in user and a name', async () => {
      const anonymous = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/workspaces', {
        name: 'Nobody',
      });
      expect(anonymous.status).toBe(401);

      const { client } = await WebClient.signUp(app.baseUrl, { email: 'noname@example.com' });
      for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(256) }]) {
        const refused = await client.request<any>('POST', '/app/api/workspaces', body);
        expect(refused.status).toBe(400);
        expect(refused.body.error.kind).toBe('validation');
        expect(refused.body.error.issues[0].path).toEqual(['name']);
      }
      expect((await client.ok('GET', '/app/api/session')).workspaces).toHaveLength(1);
    });
  });
});
