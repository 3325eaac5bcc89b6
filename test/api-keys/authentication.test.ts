import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ApiKey } from '../../src/api-keys/api-key.entity';
import { Workspace } from '../../src/identity/workspace.entity';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, rest, WebClient } from '../helpers/web-client';

/**
 * docs/api.md#authentication and the key rows of docs/api.md#errors: REST and MCP calls with keys in every
 * state, against current data on every call.
 */
describe('API key authentication (REST and MCP)', () => {
  let app: TestApp;
  let admin: WebClient;
  let workspaceId: string;

  beforeAll(async () => {
    app = await startTestApp();
    const signedUp = await WebClient.signUp(app.baseUrl, {
      email: 'owner@example.com',
      workspaceName: 'Acme',
    });
    admin = signedUp.client;
    workspaceId = signedUp.session.workspace.id;
  });
  afterAll(() => app.close());

  const newKey = async (client: WebClient = admin) =>
    (await client.ok('POST', '/app/api/api-keys', { name: `key ${Math.random()}` })).value as string;

  const expectRefusal = (
    result: { status: number; body: any },
    status: number,
    kind: string,
    customCode: string,
  ) => {
    expect(result.status).toBe(status);
    expect(result.body.error.kind).toBe(kind);
    expect(result.body.error.issues[0]).toMatchObject({ customCode, path: [], message: expect.any(String) });
  };

  async function mcpConnect(key: string | undefined): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/api/v1/mcp`), {
      requestInit: { headers: key === undefined ? {} : { 'x-api-key': key } },
    });
    await client.connect(transport);
    return client;
  }

  async function mcpRaw(key: string | undefined) {
    const response = await fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(key === undefined ? {} : { 'x-api-key': key }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  it('a valid key acts as its owner in its workspace, over REST and MCP', async () => {
    const key = await newKey();
    const me = await rest(app.baseUrl, key);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { email: 'owner@example.com' },
      workspace: { id: workspaceId, name: 'Acme' },
      role: { name: 'Admin' },
      permissions: { apiRead: true, apiCreate: true, apiEdit: true, apiDelete: true },
    });

    const mcp = await mcpConnect(key);
    await expect(mcp.ping()).resolves.toBeDefined();
    expect(mcp.getServerVersion()?.name).toBe('crm-webhooks');
    await mcp.close();
  });

  it('refuses a missing, malformed or unknown key with 401 authentication', async () => {
    expectRefusal(await rest(app.baseUrl, undefined), 401, 'authentication', 'apiKeyMissing');
    expectRefusal(await rest(app.baseUrl, 'short'), 401, 'authentication', 'apiKeyInvalid');
    expectRefusal(await rest(app.baseUrl, 'a'.repeat(64)), 401, 'authentication', 'apiKeyInvalid');
    expect(await mcpRaw('a'.repeat(64))).toMatchObject({ status: 401, body: { error: 'invalid_api_key' } });
    await expect(mcpConnect(undefined)).rejects.toMatchObject({ code: 401 });
  });

  it('refuses an expired key with 401 authentication', async () => {
    const key = await newKey();
    await app.dataSource.manager.update(ApiKey, { workspaceId }, { expiresAt: new Date(Date.now() - 1000) });
    expectRefusal(await rest(app.baseUrl, key), 401, 'authentication', 'apiKeyExpired');
    expect((await mcpRaw(key)).status).toBe(401);
    await app.dataSource.manager.update(ApiKey, { workspaceId }, { expiresAt: null });
  });

  it('stops a deleted key at once', async () => {
    const key = await newKey();
    expect((await rest(app.baseUrl, key)).status).toBe(200);
    const [listed] = (await admin.ok('GET', '/app/api/api-keys')).data;
    await admin.ok('DELETE', `/app/api/api-keys/${listed.id}`);
    expectRefusal(await rest(app.baseUrl, key), 401, 'authentication', 'apiKeyInvalid');
  });

  describe('a second member', () => {
    let member: WebClient;
    let memberUserId: string;
    let roles: Record<string, string>;

    beforeAll(async () => {
      roles = Object.fromEntries(
        (await admin.ok('GET', '/app/api/roles')).data.map((role: { name: string; id: string }) => [
          role.name,
          role.id,
        ]),
      );
      const added = await addMemberByInvitation(app.baseUrl, admin, {
        email: 'bob@example.com',
        name: 'Bob',
        roleId: roles.Member!,
      });
      memberUserId = added.userId;
      member = added.client;
    });

    const setRole = (roleId: string) => admin.ok('PATCH', `/app/api/members/${memberUserId}`, { roleId });
    const setStatus = (status: string) => admin.ok('PATCH', `/app/api/members/${memberUserId}`, { status });

    it('applies a role downgrade on the very next call, and an upgrade likewise', async () => {
      const key = await newKey(member);
      expect((await rest(app.baseUrl, key)).status).toBe(200);

      const noAccess = await admin.ok('POST', '/app/api/roles', { name: 'No API access' });
      expect(noAccess).toMatchObject({ apiRead: 'none', apiCreate: false, apiEdit: false, apiDelete: false });
      await setRole(noAccess.id);
      expectRefusal(await rest(app.baseUrl, key), 403, 'authorization', 'insufficientPermissions');
      expect(await mcpRaw(key)).toMatchObject({ status: 403, body: { error: 'insufficient_permissions' } });
      await expect(mcpConnect(key)).rejects.toBeInstanceOf(StreamableHTTPError);
      await expect(mcpConnect(key)).rejects.toMatchObject({ code: 403 });

      // Editing the role itself applies on the next call too.
      await admin.ok('PATCH', `/app/api/roles/${noAccess.id}`, { apiRead: 'all' });
      expect((await rest(app.baseUrl, key)).status).toBe(200);
      await admin.ok('PATCH', `/app/api/roles/${noAccess.id}`, { apiRead: 'none' });
      expect((await rest(app.baseUrl, key)).status).toBe(403);

      await setRole(roles.Member!);
      expect((await rest(app.baseUrl, key)).status).toBe(200);
    });

    it('refuses every call of an Inactive owner, and accepts it again once Active', async () => {
      const key = await newKey(member);
      await setStatus('inactive');
      expectRefusal(await rest(app.baseUrl, key), 403, 'authorization', 'memberInactive');
      expect(await mcpRaw(key)).toMatchObject({ status: 403, body: { error: 'member_inactive' } });
      // An Inactive member cannot manage keys either.
      expectRefusal(await member.request('GET', '/app/api/api-keys'), 403, 'authorization', 'memberInactive');
      expectRefusal(
        await member.request('POST', '/app/api/api-keys', { name: 'x' }),
        403,
        'authorization',
        'memberInactive',
      );
      await setStatus('active');
      expect((await rest(app.baseUrl, key)).status).toBe(200);
    });

    it('keys act only in their own workspace', async () => {
      const key = await newKey(member);
      const other = await WebClient.signUp(app.baseUrl, {
        email: 'carol@example.com',
        workspaceName: 'Other',
      });
      const otherKey = await newKey(other.client);
      expect((await rest(app.baseUrl, key)).body.workspace.id).toBe(workspaceId);
      expect((await rest(app.baseUrl, otherKey)).body.workspace.id).toBe(other.session.workspace.id);
    });

    it('revokes the keys of a removed member at once', async () => {
      const key = await newKey(member);
      expect((await rest(app.baseUrl, key)).status).toBe(200);
      await admin.ok('DELETE', `/app/api/members/${memberUserId}`);
      expectRefusal(await rest(app.baseUrl, key), 401, 'authentication', 'apiKeyInvalid');
      expect((await mcpRaw(key)).status).toBe(401);
      expect(await app.dataSource.manager.countBy(ApiKey, { userId: memberUserId, workspaceId })).toBe(0);
    });
  });

  it('updates Last used at most once a minute per key', async () => {
    const key = await newKey();
    const [created] = (await admin.ok('GET', '/app/api/api-keys')).data;
    expect(created.lastUsedAt).toBeNull();
    await rest(app.baseUrl, key);
    const first = (await app.dataSource.manager.findOneByOrFail(ApiKey, { id: created.id })).lastUsedAt!;
    expect(first).toBeInstanceOf(Date);
    await rest(app.baseUrl, key);
    const second = (await app.dataSource.manager.findOneByOrFail(ApiKey, { id: created.id })).lastUsedAt!;
    expect(second.getTime()).toBe(first.getTime());
    const listed = (await admin.ok('GET', '/app/api/api-keys')).data.find(
      (k: { id: string }) => k.id === created.id,
    );
    expect(listed.lastUsedAt).toBe(first.toISOString());
  });

  it('answers 404 to direct requests under /api/auth/api-key/, and has no REST key routes', async () => {
    for (const [method, path] of [
      ['GET', '/api/auth/api-key/list'],
      ['POST', '/api/auth/api-key/create'],
      ['POST', '/api/auth/api-key/delete'],
      ['GET', '/api/auth/api-key'],
      ['GET', '/api/v1/api-keys'],
    ] as const) {
      const response = await fetch(`${app.baseUrl}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as any).error.kind).toBe('not_found');
    }
  });

  it('answers 406 on MCP without the Accept header, and 405 to GET', async () => {
    const key = await newKey();
    const noAccept = await fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(noAccept.status).toBe(406);
    const get = await fetch(`${app.baseUrl}/api/v1/mcp`, { headers: { 'x-api-key': key } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('API key authentication in the cloud offering (DEPLOYMENT=cloud)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ DEPLOYMENT: 'cloud' });
  });
  afterAll(() => app.close());

  it('needs a plan to create keys, refuses keys while the workspace has no plan, and keeps them after a lapse', async () => {
    const { client, session } = await WebClient.signUp(app.baseUrl, { email: 'cloud@example.com' });
    const workspaceId = session.workspace.id;
    const noPlan = await client.request('POST', '/app/api/api-keys', { name: 'first' });
    expect(noPlan.status).toBe(403);
    expect((noPlan.body as any).error.issues[0].customCode).toBe('workspacePlanRequired');

    await app.dataSource.manager.update(Workspace, { id: workspaceId }, { planState: 'active' });
    const key = (await client.ok('POST', '/app/api/api-keys', { name: 'first' })).value as string;
    expect((await rest(app.baseUrl, key)).status).toBe(200);

    await app.dataSource.manager.update(Workspace, { id: workspaceId }, { planState: 'none' });
    const refused = await rest(app.baseUrl, key);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({
      kind: 'authorization',
      issues: [{ customCode: 'workspacePlanRequired' }],
    });
    const mcp = await fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': key,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(mcp.status).toBe(403);
    expect(await mcp.json()).toMatchObject({ error: 'plan_required' });

    for (const lapsed of ['trial_ended', 'lapsed'] as const) {
      await app.dataSource.manager.update(Workspace, { id: workspaceId }, { planState: lapsed });
      expect((await rest(app.baseUrl, key)).status).toBe(200);
    }
  });
});
