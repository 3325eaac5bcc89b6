import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, keyCall, TEST_PASSWORD, WebClient } from '../helpers/web-client';

/** Sign-up, sign-in, sessions, the workspace switcher, members and roles (docs/app-api.md#routes). */
describe('web sessions, members and roles', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('sign-up creates a user and a workspace in which the user is Admin, with the built-in roles', async () => {
    const { client, session } = await WebClient.signUp(app.baseUrl, {
      email: 'Ann@Example.com',
      workspaceName: 'Ann Co',
    });
    expect(session).toMatchObject({
      user: { email: 'ann@example.com' },
      workspace: { name: 'Ann Co' },
      role: { name: 'Admin', isAdmin: true },
      permissions: { apiRead: true, apiCreate: true, apiEdit: true, apiDelete: true, manageWorkspace: true },
      onboardingPending: true,
      member: { status: 'active' },
    });
    expect(JSON.stringify(session)).not.toMatch(/passwordHash|scrypt/);
    const roles = (await client.ok('GET', '/app/api/roles')).data;
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Member', 'Viewer']);
    expect(roles.find((r: { name: string }) => r.name === 'Viewer')).toMatchObject({
      apiRead: 'all',
      apiCreate: false,
      apiEdit: false,
      apiDelete: false,
    });

    await client.ok('POST', '/app/api/onboarding/complete');
    expect((await client.ok('GET', '/app/api/session')).onboardingPending).toBe(false);
  });

  it('refuses a taken email, a wrong password and a missing session', async () => {
    await WebClient.signUp(app.baseUrl, { email: 'dup@example.com' });
    const taken = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/sign-up', {
      name: 'Dup',
      email: 'DUP@example.com',
      password: TEST_PASSWORD,
      workspaceName: 'X',
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.issues[0]).toMatchObject({ customCode: 'emailTaken', path: ['email'] });

    const wrong = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/auth/sign-in', {
      email: 'dup@example.com',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.issues[0].customCode).toBe('invalidCredentials');

    const anonymous = await new WebClient(app.baseUrl).request<any>('GET', '/app/api/session');
    expect(anonymous.status).toBe(401);
  });

  it('signs out: the old cookie no longer works', async () => {
    const { client } = await WebClient.signUp(app.baseUrl, { email: 'out@example.com' });
    const cookieBefore = (client as unknown as { cookie: string }).cookie;
    await client.ok('POST', '/app/api/auth/sign-out');
    const replay = await fetch(`${app.baseUrl}/app/api/session`, { headers: { cookie: cookieBefore } });
    expect(replay.status).toBe(401);
  });

  it('refuses cross-origin writes to the web app routes', async () => {
    const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ email: 'x@example.com', password: 'whatever1' }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as any).error.issues[0].customCode).toBe('originMismatch');
  });

  it('lets a user in several workspaces switch between them', async () => {
    const owner = await WebClient.signUp(app.baseUrl, { email: 'multi@example.com', workspaceName: 'First' });
    const other = await WebClient.signUp(app.baseUrl, { email: 'host@example.com', workspaceName: 'Second' });
    const viewerRole = (await other.client.ok('GET', '/app/api/roles')).data.find(
      (r: { name: string }) => r.name === 'Viewer',
    );
    await addMemberByInvitation(app.baseUrl, other.client, {
      email: 'multi@example.com',
      roleId: viewerRole.id,
      signedIn: owner.client,
    });
    // Accepting opened Second; back to First, to switch.
    expect((await owner.client.ok('GET', '/app/api/session')).workspace.name).toBe('Second');
    await owner.client.ok('POST', '/app/api/session/workspace', { workspaceId: owner.session.workspace.id });
    expect((await owner.client.ok('GET', '/app/api/session')).workspace.name).toBe('First');

    const session = await owner.client.ok('GET', '/app/api/session');
    expect(session.workspaces.map((w: { name: string }) => w.name)).toEqual(['First', 'Second']);
    const switched = await owner.client.ok('POST', '/app/api/session/workspace', {
      workspaceId: other.session.workspace.id,
    });
    expect(switched).toMatchObject({ workspace: { name: 'Second' }, role: { name: 'Viewer' } });
    expect((await owner.client.ok('GET', '/app/api/session')).workspace.name).toBe('Second');

    const stranger = await WebClient.signUp(app.baseUrl, { email: 'stranger@example.com' });
    const refused = await stranger.client.request('POST', '/app/api/session/workspace', {
      workspaceId: other.session.workspace.id,
    });
    expect(refused.status).toBe(404);
  });

  describe('members and roles', () => {
    let admin: WebClient;
    let roles: Record<string, string>;

    beforeAll(async () => {
      admin = (await WebClient.signUp(app.baseUrl, { email: 'boss@example.com' })).client;
      roles = Object.fromEntries(
        (await admin.ok('GET', '/app/api/roles')).data.map((r: { name: string; id: string }) => [
          r.name,
          r.id,
        ]),
      );
    });

    const memberEmails = async () =>
      ((await admin.ok('GET', '/app/api/members')).data as { email: string }[]).map((m) => m.email);

    it('adds nobody at once: the old add-member route is gone, the same for a known and an unknown address', async () => {
      const { client: existing } = await WebClient.signUp(app.baseUrl, { email: 'known@example.com' });
      const answers = [];
      for (const email of ['unknown@example.com', 'known@example.com']) {
        const answer = await admin.request<any>('POST', '/app/api/members', { email, roleId: roles.Viewer });
        expect(answer.status).toBe(405);
        expect(answer.body.error.issues[0].customCode).toBe('methodNotAllowed');
        answers.push(answer.body);
      }
      // Nothing tells a known address from an unknown one.
      expect(answers[1]).toEqual(answers[0]);
      expect(await memberEmails()).not.toContain('unknown@example.com');
      expect(await memberEmails()).not.toContain('known@example.com');
      expect(await app.dataSource.query(`SELECT 1 FROM users WHERE email = 'unknown@example.com'`)).toEqual(
        [],
      );
      expect((await existing.ok('GET', '/app/api/session')).workspaces).toHaveLength(1);
    });

    it('a new person joins by accepting the invitation with a password of their own; an existing user by accepting signed in', async () => {
      const added = await addMemberByInvitation(app.baseUrl, admin, {
        email: 'new@example.com',
        roleId: roles.Viewer!,
      });
      expect(added.session).toMatchObject({ user: { email: 'new@example.com' }, role: { name: 'Viewer' } });
      const members = (await admin.ok('GET', '/app/api/members')).data as { email: string }[];
      expect(members.find((m) => m.email === 'new@example.com')).toMatchObject({
        roleName: 'Viewer',
        status: 'active',
      });
      // The invitee's own password, never one the Admin saw.
      await WebClient.signIn(app.baseUrl, 'new@example.com', TEST_PASSWORD);

      const { client: existing } = await WebClient.signUp(app.baseUrl, { email: 'existing@example.com' });
      const joined = await addMemberByInvitation(app.baseUrl, admin, {
        email: 'existing@example.com',
        roleId: roles.Member!,
        signedIn: existing,
      });
      expect(joined.session).toMatchObject({
        user: { email: 'existing@example.com' },
        role: { name: 'Member' },
      });
      expect(await memberEmails()).toContain('existing@example.com');

      const again = await admin.request<any>('POST', '/app/api/invitations', {
        email: 'new@example.com',
        roleId: roles.Member,
      });
      expect(again.status).toBe(409);
      expect(again.body.error.issues[0].customCode).toBe('alreadyMember');
    });

    it('keeps at least one active Admin', async () => {
      const me = (await admin.ok('GET', '/app/api/session')).user.id;
      for (const change of [{ roleId: roles.Member }, { status: 'inactive' }]) {
        const refused = await admin.request<any>('PATCH', `/app/api/members/${me}`, change);
        expect(refused.status).toBe(409);
        expect(refused.body.error.issues[0].customCode).toBe('lastAdmin');
      }
      const removal = await admin.request<any>('DELETE', `/app/api/members/${me}`);
      expect(removal.status).toBe(409);
      expect((await admin.ok('GET', '/app/api/session')).role.name).toBe('Admin');
    });

    it('a new role starts with Read access None; built-in roles cannot be changed; names are unique', async () => {
      const created = await admin.ok('POST', '/app/api/roles', { name: 'Support' });
      expect(created).toMatchObject({
        apiRead: 'none',
        apiCreate: false,
        apiEdit: false,
        apiDelete: false,
        builtin: null,
      });
      const builtin = await admin.request<any>('PATCH', `/app/api/roles/${roles.Viewer}`, {
        apiCreate: true,
      });
      expect(builtin.status).toBe(409);
      expect(builtin.body.error.issues[0].customCode).toBe('builtinRole');
      const duplicate = await admin.request<any>('POST', '/app/api/roles', { name: 'support' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error.issues[0].customCode).toBe('roleNameTaken');
    });

    it('only an Admin manages members, invitations and roles', async () => {
      const plain = (
        await addMemberByInvitation(app.baseUrl, admin, { email: 'plain@example.com', roleId: roles.Member! })
      ).client;
      // A custom role with every API & Webhooks right, that hides a field: still not an Admin.
      const adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'model' })).value as string;
      const model = (await keyCall(app.baseUrl, adminKey, 'POST', '/model/read', { type: 'deal' })).body;
      const amount = model.type.fields.find((f: { name: string }) => f.name === 'Amount').id as string;
      const hiding = await admin.ok('POST', '/app/api/roles', {
        name: 'Sales without Amount',
        apiRead: 'all',
        apiCreate: true,
        apiEdit: true,
        apiDelete: true,
        restrictedFieldIds: [amount],
      });
      const sales = (
        await addMemberByInvitation(app.baseUrl, admin, { email: 'sales@example.com', roleId: hiding.id })
      ).client;
      const pending = await admin.ok('POST', '/app/api/invitations', {
        email: 'pending@example.com',
        roleId: roles.Member,
      });
      for (const person of [plain, sales]) {
        for (const [method, path, body] of [
          ['GET', '/app/api/members'],
          ['GET', '/app/api/invitations'],
          ['POST', '/app/api/invitations', { email: 'friend@example.com', roleId: roles.Admin }],
          ['DELETE', `/app/api/invitations/${pending.id}`],
          ['GET', '/app/api/roles'],
          ['POST', '/app/api/roles', { name: 'x' }],
        ] as const) {
          const refused = await person.request<any>(method, path, body);
          expect({ route: `${method} ${path}`, status: refused.status }).toEqual({
            route: `${method} ${path}`,
            status: 403,
          });
          expect(refused.body.error.issues[0].customCode).toBe('insufficientPermissions');
        }
      }
      const invitations = (await admin.ok('GET', '/app/api/invitations')).data as { email: string }[];
      expect(invitations.map((each) => each.email)).toEqual(['pending@example.com']);
    });

    it('scopes members and roles to the workspace', async () => {
      const elsewhere = await WebClient.signUp(app.baseUrl, { email: 'else@example.com' });
      const foreignRole = (await elsewhere.client.ok('GET', '/app/api/roles')).data[0].id;
      const refused = await admin.request<any>('POST', '/app/api/invitations', {
        email: 'x1@example.com',
        roleId: foreignRole,
      });
      expect(refused.status).toBe(404);
      expect(refused.body.error.issues[0].customCode).toBe('roleNotFound');
      // The Admin of another workspace invites only to their own, and cannot revoke this one's.
      const ours = await admin.ok('POST', '/app/api/invitations', {
        email: 'x2@example.com',
        roleId: roles.Member,
      });
      const revokeForeign = await elsewhere.client.request<any>('DELETE', `/app/api/invitations/${ours.id}`);
      expect(revokeForeign.status).toBe(404);
      expect(revokeForeign.body.error.issues[0].customCode).toBe('invitationNotFound');
      const theirs = (await elsewhere.client.ok('GET', '/app/api/invitations')).data as { email: string }[];
      expect(theirs.map((each) => each.email)).not.toContain('x2@example.com');
      expect(
        ((await admin.ok('GET', '/app/api/invitations')).data as { email: string }[]).map(
          (each) => each.email,
        ),
      ).toContain('x2@example.com');
      const patchForeign = await admin.request<any>('PATCH', `/app/api/roles/${foreignRole}`, {
        name: 'Hijack',
      });
      expect(patchForeign.status).toBe(404);
      const foreignMember = elsewhere.session.user.id;
      expect((await admin.request('DELETE', `/app/api/members/${foreignMember}`)).status).toBe(404);
    });
  });
});

/**
 * Behind an HTTPS proxy the session cookie must carry Secure, or a browser would send it over plain
 * HTTP too: Secure whenever PUBLIC_URL is https, or (with TRUST_PROXY) the proxy says https.
 */
describe('the session cookie is Secure whenever the service is reached over https', () => {
  const cookieOf = async (
    overrides: Record<string, string>,
    email: string,
    headers: (baseUrl: string) => Record<string, string> = () => ({}),
  ): Promise<string[]> => {
    const app = await startTestApp(overrides);
    try {
      await WebClient.signUp(app.baseUrl, { email });
      const response = await fetch(`${app.baseUrl}/app/api/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.baseUrl, ...headers(app.baseUrl) },
        body: JSON.stringify({ email, password: TEST_PASSWORD }),
      });
      expect(response.status).toBe(200);
      const [cookie] = response.headers.getSetCookie();
      const signOut = await fetch(`${app.baseUrl}/app/api/auth/sign-out`, {
        method: 'POST',
        headers: { cookie: cookie!.split(';')[0]!, origin: app.baseUrl, ...headers(app.baseUrl) },
      });
      return [cookie!, signOut.headers.getSetCookie()[0]!].map((c) => c.toLowerCase());
    } finally {
      await app.close();
    }
  };
  const attributes = (cookie: string) => cookie.split(';').map((part) => part.trim());

  it('sets Secure with an https PUBLIC_URL (TLS ended at a proxy), on sign-in and sign-out', async () => {
    const [signIn, signOut] = await cookieOf({ PUBLIC_URL: 'https://crm.example.com' }, 'tls@example.com');
    expect(signIn).toMatch(/^crm_session=/);
    expect(attributes(signIn!)).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite=lax']));
    expect(attributes(signOut!)).toContain('secure');
  });

  it('leaves Secure off with an http PUBLIC_URL, and ignores X-Forwarded-Proto without TRUST_PROXY', async () => {
    const [signIn] = await cookieOf({ PUBLIC_URL: 'http://localhost:3000' }, 'plain@example.com', () => ({
      'x-forwarded-proto': 'https',
    }));
    expect(signIn).toMatch(/^crm_session=/);
    expect(attributes(signIn!)).not.toContain('secure');
  });

  it('honours X-Forwarded-Proto: https with TRUST_PROXY=true', async () => {
    const [signIn] = await cookieOf(
      { PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'true' },
      'proxied@example.com',
      // What a browser on the proxy's https address sends.
      (baseUrl) => ({ 'x-forwarded-proto': 'https', origin: baseUrl.replace(/^http:/, 'https:') }),
    );
    expect(attributes(signIn!)).toContain('secure');
  });
});
