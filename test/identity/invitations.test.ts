import { RESET_PASSWORD_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { INVITATION_SUBJECT_PREFIX } from '../../src/identity/invitations/invitation-mail';
import { tokenIn } from '../helpers/mailboxes';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { TEST_PASSWORD, WebClient, freshClientAddress } from '../helpers/web-client';

/**
 * Account pre-claim (issue 34, item 1), from the attacker's side over HTTP: a stranger signs up with
 * a future member's address before the Admin adds it; the stranger never enters the workspace, and
 * the real person joins by the invitation mailed to the address.
 */
describe('invitations instead of instant membership', () => {
  let app: TestApp;
  let admin: WebClient;
  let memberRoleId: string;

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'admin@b.test', workspaceName: 'B' })).client;
    const roles = (await admin.ok('GET', '/app/api/roles')).data as { id: string; name: string }[];
    memberRoleId = roles.find((role) => role.name === 'Member')!.id;
  });
  afterAll(() => app.close());

  const invitationToken = async (email: string) =>
    tokenIn(
      (await app.mail.waitForMessage({ to: email, subject: new RegExp(`^${INVITATION_SUBJECT_PREFIX}`) }))
        .Text,
      'accept-invitation',
    );
  const memberEmails = async () =>
    ((await admin.ok('GET', '/app/api/members')).data as { email: string }[]).map((member) => member.email);

  it('the stranger who pre-claimed the address never enters B; the real person takes the account back and accepts', async () => {
    const victim = 'new.hire@victimcorp.test';
    const { client: stranger } = await WebClient.signUpUnverified(app.baseUrl, { email: victim });

    // The web app has no direct add any more: the old route adds nobody, the stranger's account least of all.
    const added = await admin.request<any>('POST', '/app/api/members', {
      email: victim,
      roleId: memberRoleId,
    });
    expect(added.status).toBe(405);
    expect(added.body.error.issues[0].customCode).toBe('methodNotAllowed');
    expect(await memberEmails()).not.toContain(victim);

    // The invitation goes to the address; the Admin sees it pending.
    const invited = await admin.ok('POST', '/app/api/invitations', { email: victim, roleId: memberRoleId });
    expect(invited).toMatchObject({ email: victim, roleName: 'Member', invitedBy: 'admin' });
    expect((await admin.ok('GET', '/app/api/invitations')).data).toEqual([invited]);
    const token = await invitationToken(victim);
    expect(JSON.stringify(await app.dataSource.query(`SELECT * FROM invitations`))).not.toContain(token);

    // Even holding the token, the stranger's unverified account cannot accept, nor make a new one.
    const accept = await stranger.request<any>('POST', '/app/api/invitations/accept', { token });
    expect(accept.status).toBe(403);
    expect(accept.body.error.issues[0].customCode).toBe('emailNotVerified');
    const asNew = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/invitations/accept-new', {
      token,
      name: 'Stranger',
      password: 'another long password 1',
    });
    expect(asNew.status).toBe(409);
    expect(asNew.body.error.issues[0].customCode).toBe('emailTaken');
    const workspaces = (await stranger.ok('GET', '/app/api/session')).workspaces as { name: string }[];
    expect(workspaces.map((w) => w.name)).not.toContain('B');
    expect(await memberEmails()).not.toContain(victim);

    // The real person resets the password by the mailed link, signs in and accepts.
    await new WebClient(app.baseUrl, { from: freshClientAddress() }).ok(
      'POST',
      '/app/api/auth/password-reset',
      { email: victim },
      [202],
    );
    const reset = tokenIn(
      (await app.mail.waitForMessage({ to: victim, subject: RESET_PASSWORD_SUBJECT })).Text,
      'reset-password',
    );
    await new WebClient(app.baseUrl).ok('POST', '/app/api/auth/password-reset/complete', {
      token: reset,
      newPassword: 'the real owner 2026',
    });
    expect((await stranger.request('GET', '/app/api/session')).status).toBe(401);
    const { client: owner } = await WebClient.signIn(app.baseUrl, victim, 'the real owner 2026');
    const joined = await owner.ok('POST', '/app/api/invitations/accept', { token });
    expect(joined).toMatchObject({ workspace: { name: 'B' }, role: { name: 'Member' }, emailVerified: true });
    expect(await memberEmails()).toContain(victim);
    expect((await admin.ok('GET', '/app/api/invitations')).data).toEqual([]);
    // Single use.
    const again = await owner.request<any>('POST', '/app/api/invitations/accept', { token });
    expect(again.status).toBe(400);
    expect(again.body.error.issues[0].customCode).toBe('invitationInvalid');
  });

  it('accepting by the link without an account creates a verified account with the invitee’s own password', async () => {
    await admin.ok('POST', '/app/api/invitations', { email: 'Fresh@Example.com', roleId: memberRoleId });
    const token = await invitationToken('fresh@example.com');
    const preview = await new WebClient(app.baseUrl).ok('POST', '/app/api/invitations/preview', { token });
    expect(preview).toEqual({ workspaceName: 'B', email: 'fresh@example.com', roleName: 'Member' });

    const weak = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/invitations/accept-new', {
      token,
      name: 'Fresh',
      password: 'fresh@example.com',
    });
    expect(weak.status).toBe(400);
    const invitee = new WebClient(app.baseUrl);
    const session = await invitee.ok('POST', '/app/api/invitations/accept-new', {
      token,
      name: 'Fresh',
      password: TEST_PASSWORD,
    });
    expect(session).toMatchObject({
      user: { email: 'fresh@example.com', name: 'Fresh' },
      emailVerified: true,
    });
    expect(session.workspace.name).toBe('B');
    expect((await invitee.request('GET', '/app/api/api-keys')).status).toBe(200);
    await WebClient.signIn(app.baseUrl, 'fresh@example.com', TEST_PASSWORD);
    const reused = await new WebClient(app.baseUrl).request<any>('POST', '/app/api/invitations/accept-new', {
      token,
      name: 'Again',
      password: 'yet another password 3',
    });
    expect(reused.status).toBe(400);
  });

  it('an invitation for one address cannot be accepted by another verified account, and stays usable', async () => {
    await admin.ok('POST', '/app/api/invitations', { email: 'right@example.com', roleId: memberRoleId });
    const token = await invitationToken('right@example.com');
    const { client: other } = await WebClient.signUp(app.baseUrl, { email: 'other@example.com' });
    const refused = await other.request<any>('POST', '/app/api/invitations/accept', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.issues[0].customCode).toBe('invitationForAnotherEmail');
    const { client: right } = await WebClient.signUp(app.baseUrl, { email: 'right@example.com' });
    expect((await right.ok('POST', '/app/api/invitations/accept', { token })).workspace.name).toBe('B');
  });

  it('a revoked, a replaced and an expired invitation are refused', async () => {
    const first = await admin.ok('POST', '/app/api/invitations', {
      email: 'gone@example.com',
      roleId: memberRoleId,
    });
    const firstToken = await invitationToken('gone@example.com');
    await app.mail.clear();
    await admin.ok('POST', '/app/api/invitations', { email: 'gone@example.com', roleId: memberRoleId });
    const secondToken = await invitationToken('gone@example.com');
    const pending = (await admin.ok('GET', '/app/api/invitations')).data as { id: string; email: string }[];
    expect(pending.filter((each) => each.email === 'gone@example.com')).toHaveLength(1);
    const preview = (token: string) =>
      new WebClient(app.baseUrl).request<any>('POST', '/app/api/invitations/preview', { token });
    expect((await preview(firstToken)).status).toBe(400);
    expect((await admin.request('DELETE', `/app/api/invitations/${first.id}`)).status).toBe(404);

    const current = pending.find((each) => each.email === 'gone@example.com')!;
    expect((await admin.request('DELETE', `/app/api/invitations/${current.id}`)).status).toBe(204);
    expect((await preview(secondToken)).status).toBe(400);

    await admin.ok('POST', '/app/api/invitations', { email: 'late@example.com', roleId: memberRoleId });
    const lateToken = await invitationToken('late@example.com');
    await app.dataSource.query(
      `UPDATE invitations SET expires_at = now() - interval '1 second' WHERE email = 'late@example.com'`,
    );
    const late = await preview(lateToken);
    expect(late.status).toBe(400);
    expect(late.body.error.issues[0].customCode).toBe('invitationInvalid');
  });

  it('only an Admin invites, lists and revokes', async () => {
    await admin.ok('POST', '/app/api/invitations', { email: 'viewer@example.com', roleId: memberRoleId });
    const token = await invitationToken('viewer@example.com');
    const member = new WebClient(app.baseUrl);
    await member.ok('POST', '/app/api/invitations/accept-new', { token, name: 'V', password: TEST_PASSWORD });
    for (const [method, path, body] of [
      ['GET', '/app/api/invitations'],
      ['POST', '/app/api/invitations', { email: 'x@example.com', roleId: memberRoleId }],
      ['DELETE', '/app/api/invitations/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const answer = await member.request<any>(method, path, body);
      expect(answer.status).toBe(403);
      expect(answer.body.error.issues[0].customCode).toBe('insufficientPermissions');
    }
  });
});
