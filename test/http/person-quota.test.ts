import { quotaRefusalBody } from '../helpers/floods';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 34, workspace floods, from the side of one person who creates several workspaces to be
 * served several quotas: every workspace a person created (sign-up's and the web app's) draws from
 * one more bucket, the person's, with every key and session in it. Small quotas here: 8 a second
 * per workspace and 10 a second per person, no bursts; keys are not the limit.
 */
describe('one request quota for all the workspaces a person created', () => {
  let app: TestApp;
  let firstKey: string;
  let secondKey: string;
  let neighbourKey: string;
  let person: WebClient;

  beforeAll(async () => {
    app = await startTestApp({
      QUOTA_PER_KEY: '100',
      QUOTA_PER_WORKSPACE: '8',
      QUOTA_BURST_PER_WORKSPACE: '0',
      QUOTA_PER_PERSON: '10',
      QUOTA_BURST_PER_PERSON: '0',
    });
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'many-workspaces@example.com' });
    person = signedUp.client;
    firstKey = (await person.ok('POST', '/app/api/api-keys', { name: 'first' })).value;
    // A second workspace of their own (the session switches to it), and a key there.
    await person.ok('POST', '/app/api/workspaces', { name: 'Second' });
    secondKey = (await person.ok('POST', '/app/api/api-keys', { name: 'second' })).value;
    await person.ok('POST', '/app/api/session/workspace', { workspaceId: signedUp.session.workspace.id });
    const neighbour = (await WebClient.signUp(app.baseUrl, { email: 'neighbour@example.com' })).client;
    neighbourKey = (await neighbour.ok('POST', '/app/api/api-keys', { name: 'n' })).value;
  });
  afterAll(() => app?.close());

  const get = (key: string) => fetch(`${app.baseUrl}/api/v1/webhooks`, { headers: { 'x-api-key': key } });
  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));

  it("refuses a person's second workspace once their workspaces together reach the person's quota; a neighbour is served", async () => {
    await nextSecond();
    // Six in the first workspace (within its 8), then the second workspace: within its own 8, but
    // the person's 10 run out at its fifth.
    const first: number[] = [];
    for (let i = 0; i < 6; i++) {
      const answer = await get(firstKey);
      await answer.arrayBuffer();
      first.push(answer.status);
    }
    expect(first).toEqual([200, 200, 200, 200, 200, 200]);
    const second: Response[] = [];
    for (let i = 0; i < 5; i++) second.push(await get(secondKey));
    expect(second.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
    const refused = second[4]!;
    expect(refused.headers.get('ratelimit-policy')).toBe(
      '"credential";q=100;w=1, "credential-burst";q=100;w=10, "workspace";q=8;w=1, "person";q=10;w=1',
    );
    expect(refused.headers.get('ratelimit')).toMatch(/"person";r=0;t=\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual(
      quotaRefusalBody("all the workspaces created by this workspace's creator"),
    );
    // The person's web session draws from the same bucket; another person's key does not.
    expect((await person.request('GET', '/app/api/webhooks')).status).toBe(429);
    expect((await get(neighbourKey)).status).toBe(200);
  });
});
