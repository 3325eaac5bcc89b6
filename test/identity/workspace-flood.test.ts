import { configSchema } from '../../src/config';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

/** The documented default (README, "Settings"): the tests below run with it. */
const WORKSPACES_PER_PERSON = configSchema.shape.WORKSPACES_PER_PERSON.parse(undefined);

/**
 * Issue 34, item 6, from the attacker's side: one person signs up and creates workspace after
 * workspace from the web app, each with a request quota of its own (25 in 1.45 s were made before).
 * Each person creates at most WORKSPACES_PER_PERSON (sign-up's first included); the rest are refused
 * with 403 `workspaceLimitReached` in the spec's body, and a refused creation leaves nothing behind.
 */
describe('workspace creation bounded per person (POST /app/api/workspaces)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const count = async (sql: string, params: unknown[] = []) =>
    Number((await app.dataSource.query(sql, params))[0].n);
  const rowsNow = async () => ({
    workspaces: await count(`SELECT count(*) AS n FROM workspaces`),
    members: await count(`SELECT count(*) AS n FROM members`),
    roles: await count(`SELECT count(*) AS n FROM roles`),
  });
  const refusal = {
    error: {
      kind: 'authorization',
      issues: [
        {
          code: 'authorization',
          path: [],
          message: expect.stringContaining(`${WORKSPACES_PER_PERSON} workspaces`),
          customCode: 'workspaceLimitReached',
        },
      ],
    },
  };

  it('a flood of 25 simultaneous creations makes the bound and no more; the rest are refused whole', async () => {
    expect(WORKSPACES_PER_PERSON).toBe(5);
    const { client, session } = await WebClient.signUp(app.baseUrl, { email: 'flood@example.com' });
    const userId = session.user.id as string;
    const before = await rowsNow();

    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        client.request<any>('POST', '/app/api/workspaces', { name: `Flood ${i}` }),
      ),
    );

    const made = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(made).toHaveLength(WORKSPACES_PER_PERSON - 1);
    expect(refused).toHaveLength(25 - (WORKSPACES_PER_PERSON - 1));
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(refusal);
    }

    // Nothing half-written: exactly the made workspaces, each with its Admin and built-in roles.
    const after = await rowsNow();
    expect(after.workspaces - before.workspaces).toBe(made.length);
    expect(after.members - before.members).toBe(made.length);
    expect(after.roles - before.roles).toBe(made.length * 3);
    expect(
      await count(
        `SELECT count(*) AS n FROM workspaces w WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.workspace_id = w.id)`,
      ),
    ).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM members WHERE user_id = $1`, [userId])).toBe(
      WORKSPACES_PER_PERSON,
    );
    const names = (await client.ok('GET', '/app/api/session')).workspaces.map(
      (w: { name: string }) => w.name,
    );
    expect(names).toHaveLength(WORKSPACES_PER_PERSON);

    // Later, one at a time, still refused, and the session stays where the last creation left it.
    const current = (await client.ok('GET', '/app/api/session')).workspace.id;
    const again = await client.request<any>('POST', '/app/api/workspaces', { name: 'One more' });
    expect(again.status).toBe(403);
    expect(again.body).toEqual(refusal);
    expect((await client.ok('GET', '/app/api/session')).workspace.id).toBe(current);
    expect(await rowsNow()).toEqual(after);
  });

  it('counts what a person created, not where they are a member; each person has their own bound', async () => {
    const host = await WebClient.signUp(app.baseUrl, { email: 'host-ws@example.com' });
    const viewer = (await host.client.ok('GET', '/app/api/roles')).data.find(
      (role: { name: string }) => role.name === 'Viewer',
    );
    const { client: guest } = await addMemberByInvitation(app.baseUrl, host.client, {
      email: 'guest-ws@example.com',
      roleId: viewer.id,
    });

    // The guest signed up nothing: every place is theirs to use, the host's workspace aside.
    for (let i = 1; i <= WORKSPACES_PER_PERSON; i++) {
      await guest.ok('POST', '/app/api/workspaces', { name: `Guest ${i}` }, [201]);
    }
    expect((await guest.request('POST', '/app/api/workspaces', { name: 'Guest over' })).status).toBe(403);

    // The host is not held by the guest's count: sign-up's first and the rest of the bound.
    for (let i = 2; i <= WORKSPACES_PER_PERSON; i++) {
      await host.client.ok('POST', '/app/api/workspaces', { name: `Host ${i}` }, [201]);
    }
    const over = await host.client.request<any>('POST', '/app/api/workspaces', { name: 'Host over' });
    expect(over.status).toBe(403);
    expect(over.body).toEqual(refusal);
  });
});

describe('WORKSPACES_PER_PERSON', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ WORKSPACES_PER_PERSON: '1' });
  });
  afterAll(() => app.close());

  it('is the setting: with 1, sign-up still makes the first workspace and nothing more', async () => {
    const { client } = await WebClient.signUp(app.baseUrl, { email: 'just-one@example.com' });
    const refused = await client.request<any>('POST', '/app/api/workspaces', { name: 'Second' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.issues[0]).toMatchObject({
      customCode: 'workspaceLimitReached',
      message: expect.stringContaining('created 1 workspace,'),
    });
  });
});
