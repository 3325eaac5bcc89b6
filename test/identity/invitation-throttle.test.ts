import { INVITATION_SUBJECT_PREFIX } from '../../src/identity/invitations/invitation-mail';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Invitations are mail with text an Admin chose (the workspace's name, their own) to any address
 * (issue 34). From the side of a stranger who signs up to use the service as a mailer: one person's
 * invitations are bounded across all their workspaces, and one address is invited only a few times
 * a day from every workspace together; past either, 429 `invitationThrottled`, no invitation and no
 * mail. Small bounds here: 4 invitations per person per hour, 2 per address per day.
 */
describe('invitations mailed per person and per address', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ INVITATIONS_PER_INVITER_PER_HOUR: '4', INVITATIONS_PER_ADDRESS_PER_DAY: '2' });
  });
  afterAll(() => app.close());

  const adminOf = async (email: string) => {
    const { client } = await WebClient.signUp(app.baseUrl, { email });
    const roles = (await client.ok('GET', '/app/api/roles')).data as { id: string; name: string }[];
    return { client, memberRoleId: roles.find((role) => role.name === 'Member')!.id };
  };
  const invite = (admin: { client: WebClient; memberRoleId: string }, email: string) =>
    admin.client.request<any>('POST', '/app/api/invitations', { email, roleId: admin.memberRoleId });
  const invitationsMailedTo = async (email: string) =>
    (await app.mail.messages()).filter(
      (message) =>
        message.Subject.startsWith(INVITATION_SUBJECT_PREFIX) &&
        message.To.some((to) => to.Address.toLowerCase() === email),
    ).length;
  const expectThrottled = (answer: { status: number; body: any }, why: RegExp) => {
    expect(answer.status).toBe(429);
    expect(answer.body.error).toMatchObject({
      kind: 'rate_limit',
      issues: [{ code: 'rate_limit', customCode: 'invitationThrottled' }],
    });
    expect(answer.body.error.issues[0].message).toMatch(why);
  };

  it('refuses one address invited again and again, from one workspace or several, without mailing it', async () => {
    const victim = 'inbox-victim@example.com';
    const first = await adminOf('spammer-a@example.com');
    const second = await adminOf('spammer-b@example.com');
    expect((await invite(first, victim)).status).toBe(201);
    expect((await invite(second, victim)).status).toBe(201);
    expectThrottled(await invite(first, victim), /^This address was invited too many times today/);
    expectThrottled(await invite(second, 'INBOX-victim@example.com'), /invited too many times/);
    expect(await invitationsMailedTo(victim)).toBe(2);
    // Other addresses are still invited.
    expect((await invite(first, 'someone-else@example.com')).status).toBe(201);
  });

  it("bounds one person's invitations across every workspace they run", async () => {
    const admin = await adminOf('mass-inviter@example.com');
    expect((await invite(admin, 'one@example.com')).status).toBe(201);
    expect((await invite(admin, 'two@example.com')).status).toBe(201);
    // Their second workspace adds no allowance.
    await admin.client.ok('POST', '/app/api/workspaces', { name: 'Another' });
    const roles = (await admin.client.ok('GET', '/app/api/roles')).data as { id: string; name: string }[];
    const there = { client: admin.client, memberRoleId: roles.find((role) => role.name === 'Member')!.id };
    expect((await invite(there, 'three@example.com')).status).toBe(201);
    expect((await invite(there, 'four@example.com')).status).toBe(201);
    expectThrottled(await invite(there, 'five@example.com'), /^You have sent too many invitations this hour/);
    expect(await invitationsMailedTo('five@example.com')).toBe(0);
    expect((await admin.client.ok('GET', '/app/api/invitations')).data.map((i: any) => i.email)).toEqual(
      expect.not.arrayContaining(['five@example.com']),
    );
    // Another person invites as before.
    expect((await invite(await adminOf('calm-admin@example.com'), 'five@example.com')).status).toBe(201);
  });
});
