import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthConnection } from '../../src/oauth/oauth-connection.entity';
import { OAuthStoreRow } from '../../src/oauth/oauth-store.entity';
import {
  authorizationUrl,
  authorizeWithoutBrowser,
  mcpWithToken,
  pkce,
  registerClient,
  startRedirectListener,
  tokenRequest,
  type RedirectListener,
} from '../helpers/oauth';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

/**
 * Issue 15, the attacker's side of OAuth for chat assistants, against the real service (real
 * PostgreSQL, real HTTP on loopback, oidc-provider as configured): the browser's part of the flow
 * is driven with fetch and a cookie jar (test/browser/oauth-connector.test.ts drives it in
 * Chromium with the official SDK client).
 */
describe('OAuth for chat assistants: what is refused', () => {
  let app: TestApp;
  let redirect: RedirectListener;
  let admin: WebClient;
  let mia: WebClient;
  let miaUserId: string;
  let acme: string;
  let side: string;
  let roles: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp();
    redirect = await startRedirectListener();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'ada@acme.test', workspaceName: 'Acme' });
    admin = signedUp.client;
    acme = signedUp.session.workspace.id;
    const connector = await admin.ok('POST', '/app/api/roles', { name: 'Connector', apiRead: 'all' });
    const noApi = await admin.ok('POST', '/app/api/roles', { name: 'No API' });
    roles = { connector: connector.id, noApi: noApi.id };
    const added = await addMemberByInvitation(app.baseUrl, admin, {
      email: 'mia@acme.test',
      roleId: roles.connector!,
    });
    miaUserId = added.userId;
    mia = added.client;
    // Mia's own workspace, where she is Admin; her session now has it open.
    side = (await mia.ok('POST', '/app/api/workspaces', { name: "Mia's side" })).workspace.id;
    await mia.ok('POST', '/app/api/webhooks', {
      url: 'https://side.example/hook',
      events: ['record.created'],
    });
    await admin.ok('POST', '/app/api/webhooks', {
      url: 'https://acme.example/hook',
      events: ['record.created'],
    });
  });
  afterAll(async () => {
    await redirect?.close();
    await app?.close();
  });

  const resource = () => `${app.baseUrl}/api/v1/mcp`;

  /** Register, authorize (the person allows `workspaceId`), exchange: the token answer. */
  async function connect(workspaceId: string, who: WebClient = mia, readOnly?: boolean) {
    const client = await registerClient(app.baseUrl, redirect.url);
    const { verifier, challenge } = pkce();
    const result = await authorizeWithoutBrowser(app.baseUrl, {
      url: authorizationUrl(app.baseUrl, client, redirect.url, challenge),
      sessionCookie: who.sessionCookie,
      answer: { allow: workspaceId, readOnly },
    });
    if (!result.location) throw new Error(`authorization refused: ${JSON.stringify(result)}`);
    const code = new URL(result.location).searchParams.get('code')!;
    const exchange = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect.url,
      client_id: client.client_id,
      code_verifier: verifier,
      resource: resource(),
    };
    const tokens = await tokenRequest(app.baseUrl, exchange);
    expect(tokens.status).toBe(200);
    return { client, code, exchange, tokens: tokens.body as { access_token: string; refresh_token: string } };
  }

  async function webhookUrlsWith(token: string): Promise<string[]> {
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(resource()), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({ name: 'manage_webhooks', arguments: { action: 'list' } });
    await client.close();
    return ((result.structuredContent as { data: { url: string }[] }).data ?? []).map((hook) => hook.url);
  }

  const counts = async () => ({
    connections: await app.dataSource.manager.countBy(OAuthConnection, { userId: miaUserId }),
    grants: await app.dataSource.manager.countBy(OAuthStoreRow, { model: 'Grant' }),
  });

  it('a token acts only in the workspace chosen at consent', async () => {
    const inAcme = await connect(acme);
    const inSide = await connect(side);
    expect(await webhookUrlsWith(inAcme.tokens.access_token)).toEqual(['https://acme.example/hook']);
    expect(await webhookUrlsWith(inSide.tokens.access_token)).toEqual(['https://side.example/hook']);
    // The binding is the connection's, written at consent: its token carries the workspace too.
    const stored = await app.dataSource.manager.findOneByOrFail(OAuthStoreRow, {
      model: 'AccessToken',
      idHash: createHash('sha256').update(inAcme.tokens.access_token).digest('hex'),
    });
    expect(stored.payload).toMatchObject({ extra: { workspace_id: acme }, accountId: miaUserId });
  });

  it('an app connected to read only gets only the tools that change nothing, whatever header it sends', async () => {
    const readOnly = await connect(side, mia, true);
    const full = await connect(side);
    const toolsOf = async (token: string, headers: Record<string, string> = {}) => {
      const client = new Client({ name: 'assistant', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(resource()), {
          requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
        }),
      );
      return client;
    };
    const reader = await toolsOf(readOnly.tokens.access_token, { 'x-mcp-readonly': 'false' });
    try {
      const names = (await reader.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('list_webhooks');
      expect(names).not.toContain('manage_webhooks');
      expect(names).not.toContain('create_record');
      expect(reader.getInstructions()).toMatch(/^CRM webhooks, read-only connection: /);
      const [hook] = (
        (await reader.callTool({ name: 'list_webhooks', arguments: {} })).structuredContent as {
          data: { id: string }[];
        }
      ).data;
      const refused = await reader.callTool({
        name: 'manage_webhooks',
        arguments: { action: 'delete', id: hook!.id },
      });
      expect(refused).toMatchObject({
        isError: true,
        _meta: { failure: { issues: [{ customCode: 'toolNotFound' }] } },
      });
      expect(await webhookUrlsWith(full.tokens.access_token)).toEqual(['https://side.example/hook']);
    } finally {
      await reader.close();
    }
    // Settings → Connected apps says which is which.
    const apps = (await mia.ok('GET', '/app/api/connected-apps')).data as { id: string; readOnly: boolean }[];
    expect(apps.filter((candidate) => candidate.readOnly)).toHaveLength(1);
  });

  it('refuses another resource at the authorization endpoint, and a token for another audience at the MCP endpoint', async () => {
    const client = await registerClient(app.baseUrl, redirect.url);
    const refused = await authorizeWithoutBrowser(app.baseUrl, {
      url: authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge, {
        resource: 'https://elsewhere.example/api',
      }),
      sessionCookie: mia.sessionCookie,
      answer: { allow: acme },
    });
    expect(refused.refusedAt).toBe('authorize');
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_target');

    const { tokens } = await connect(acme);
    await app.dataSource.query(
      `UPDATE oauth_store SET payload = jsonb_set(payload, '{aud}', '"https://elsewhere.example/api"')
        WHERE model = 'AccessToken' AND id_hash = $1`,
      [createHash('sha256').update(tokens.access_token).digest('hex')],
    );
    const call = await mcpWithToken(app.baseUrl, tokens.access_token);
    expect(call.status).toBe(401);
    expect(call.body.error).toBe('invalid_token');
  });

  it('requires PKCE with S256: none or `plain` is refused', async () => {
    const client = await registerClient(app.baseUrl, redirect.url);
    for (const overrides of [{}, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }]) {
      const refused = await authorizeWithoutBrowser(app.baseUrl, {
        url: authorizationUrl(app.baseUrl, client, redirect.url, undefined, overrides),
        sessionCookie: mia.sessionCookie,
        answer: { allow: acme },
      });
      expect(refused.refusedAt).toBe('authorize');
      const answer = new URL(refused.location!).searchParams;
      expect(answer.get('error')).toBe('invalid_request');
      expect(answer.get('error_description')).toMatch(/PKCE|code_challenge/);
    }
    // A verifier that does not match the challenge gets no token.
    const { challenge } = pkce();
    const result = await authorizeWithoutBrowser(app.baseUrl, {
      url: authorizationUrl(app.baseUrl, client, redirect.url, challenge),
      sessionCookie: mia.sessionCookie,
      answer: { allow: acme },
    });
    const code = new URL(result.location!).searchParams.get('code')!;
    const wrong = await tokenRequest(app.baseUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirect.url,
      client_id: client.client_id,
      code_verifier: pkce().verifier,
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a code works once; using it again is refused and revokes what it gave', async () => {
    const { exchange, tokens } = await connect(acme);
    expect((await mcpWithToken(app.baseUrl, tokens.access_token)).status).toBe(200);
    const again = await tokenRequest(app.baseUrl, exchange);
    expect(again).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpWithToken(app.baseUrl, tokens.access_token)).status).toBe(401);
  });

  it('a refresh token rotates: the spent one is refused, and its reuse revokes the chain', async () => {
    const { client, tokens } = await connect(acme);
    const refresh = (token: string) =>
      tokenRequest(app.baseUrl, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: client.client_id,
      });
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpWithToken(app.baseUrl, rotated.body.access_token)).status).toBe(200);

    expect(await refresh(tokens.refresh_token)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    // Reuse is taken as theft: the newer tokens of the same grant stop too.
    expect(await refresh(rotated.body.refresh_token)).toMatchObject({ status: 400 });
    expect((await mcpWithToken(app.baseUrl, rotated.body.access_token)).status).toBe(401);
  });

  it('the store keeps no usable token or code (only their SHA-256), and seals client secrets', async () => {
    const { code, tokens } = await connect(acme);
    const confidential = await fetch(`${app.baseUrl}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Confidential',
        redirect_uris: [redirect.url],
        token_endpoint_auth_method: 'client_secret_post',
      }),
    }).then((response) => response.json() as Promise<{ client_id: string; client_secret: string }>);
    expect(confidential.client_secret).toEqual(expect.any(String));

    const rows = (await app.dataSource.query(`SELECT * FROM oauth_store`)) as Record<string, unknown>[];
    const everything = JSON.stringify(rows);
    for (const secret of [code, tokens.access_token, tokens.refresh_token]) {
      expect(everything).not.toContain(secret);
      expect(everything).toContain(createHash('sha256').update(secret).digest('hex'));
    }
    expect(everything).not.toContain(confidential.client_secret);
    // The sealed secret still authenticates its client: a made-up code is the only problem left.
    const form = { grant_type: 'authorization_code', code: 'made-up', redirect_uri: redirect.url };
    const withSecret = {
      ...form,
      client_id: confidential.client_id,
      client_secret: confidential.client_secret,
    };
    expect(await tokenRequest(app.baseUrl, withSecret)).toMatchObject({ body: { error: 'invalid_grant' } });
    const wrongSecret = { ...withSecret, client_secret: 'wrong' };
    expect(await tokenRequest(app.baseUrl, wrongSecret)).toMatchObject({ body: { error: 'invalid_client' } });
  });

  it('REST stays API-key only: a bearer token is refused', async () => {
    const { tokens } = await connect(acme);
    const response = await fetch(`${app.baseUrl}/api/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    const body = (await response.json()) as any;
    expect(response.status).toBe(401);
    expect(body.error.issues[0].customCode).toBe('apiKeyMissing');
  });

  describe('consent', () => {
    const setMia = (change: Record<string, string>) =>
      admin.ok('PATCH', `/app/api/members/${miaUserId}`, change);

    async function consentTo(workspaceId: string, who: WebClient = mia) {
      const client = await registerClient(app.baseUrl, redirect.url);
      return authorizeWithoutBrowser(app.baseUrl, {
        url: authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge),
        sessionCookie: who.sessionCookie,
        answer: { allow: workspaceId },
      });
    }

    it('is refused, with nothing written, for an Inactive member and a role without Read access All', async () => {
      const before = await counts();
      await setMia({ status: 'inactive' });
      const inactive = await consentTo(acme);
      expect(inactive).toMatchObject({ refusedAt: 'consent', status: 403 });
      expect(inactive.body.error.issues[0].customCode).toBe('memberInactive');
      await setMia({ status: 'active', roleId: roles.noApi! });
      const noRead = await consentTo(acme);
      expect(noRead).toMatchObject({ refusedAt: 'consent', status: 403 });
      expect(noRead.body.error.issues[0].customCode).toBe('insufficientPermissions');
      expect(await counts()).toEqual(before);
      await setMia({ roleId: roles.connector! });
    });

    it('is refused for a workspace the person is not a member of', async () => {
      const outsider = (await WebClient.signUp(app.baseUrl, { email: 'out@other.test' })).session.workspace
        .id;
      const refused = await consentTo(outsider);
      expect(refused).toMatchObject({ refusedAt: 'consent', status: 404 });
    });

    it('Deny answers access_denied to the client, and writes nothing', async () => {
      const before = await counts();
      const client = await registerClient(app.baseUrl, redirect.url);
      const denied = await authorizeWithoutBrowser(app.baseUrl, {
        url: authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge),
        sessionCookie: mia.sessionCookie,
        answer: 'deny',
      });
      expect(new URL(denied.location!).searchParams.get('error')).toBe('access_denied');
      expect(await counts()).toEqual(before);
    });

    it('is bound to the browser that started it: no interaction cookie, another origin, no session', async () => {
      const client = await registerClient(app.baseUrl, redirect.url);
      const start = await fetch(authorizationUrl(app.baseUrl, client, redirect.url, pkce().challenge), {
        redirect: 'manual',
      });
      const consentPath = start.headers.get('location')!;
      const post = (headers: Record<string, string>) =>
        fetch(`${app.baseUrl}${consentPath}/allow`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ workspaceId: acme }),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
      const session = `crm_session=${mia.sessionCookie}`;
      // The uid alone is not enough: without the interaction cookie of the browser that started it.
      const noCookie = await post({ cookie: session, origin: app.baseUrl });
      expect(noCookie.status).toBe(404);
      expect(noCookie.body.error.issues[0].customCode).toBe('oauthInteractionNotFound');
      const crossSite = await post({ cookie: session, origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      expect(crossSite.body.error.issues[0].customCode).toBe('originMismatch');
      const signedOut = await post({ origin: app.baseUrl });
      expect(signedOut.status).toBe(401);
    });
  });

  describe('Connected apps', () => {
    it('nobody lists or disconnects another person’s connections, Admin included', async () => {
      const { tokens } = await connect(acme);
      await mia.ok('POST', '/app/api/session/workspace', { workspaceId: acme });
      const own = (await mia.ok('GET', '/app/api/connected-apps')).data as {
        id: string;
        clientName: string;
      }[];
      expect(own.length).toBeGreaterThan(0);
      expect(own[0]).toMatchObject({
        clientName: 'Attacker test client',
        redirectHost: new URL(redirect.url).host,
      });
      expect(Object.keys(own[0]!).sort()).toEqual([
        'clientName',
        'createdAt',
        'id',
        'lastUsedAt',
        'readOnly',
        'redirectHost',
      ]);

      expect((await admin.ok('GET', '/app/api/connected-apps')).data).toEqual([]);
      const byAdmin = await admin.request<any>('DELETE', `/app/api/connected-apps/${own[0]!.id}`);
      expect(byAdmin.status).toBe(404);
      expect(byAdmin.body.error.issues[0].customCode).toBe('oauthConnectionNotFound');

      const newest = own[0]!;
      await mia.ok('DELETE', `/app/api/connected-apps/${newest.id}`);
      const gone = await mcpWithToken(app.baseUrl, tokens.access_token);
      expect(gone.status).toBe(401);
      expect(gone.wwwAuthenticate).toContain('error="invalid_token"');
    });

    it('removing a member revokes their connections in that workspace at once, and only there', async () => {
      const inAcme = await connect(acme);
      const inSide = await connect(side);
      await admin.ok('DELETE', `/app/api/members/${miaUserId}`);
      expect((await mcpWithToken(app.baseUrl, inAcme.tokens.access_token)).status).toBe(401);
      expect((await mcpWithToken(app.baseUrl, inSide.tokens.access_token)).status).toBe(200);
      expect(
        await app.dataSource.manager.countBy(OAuthConnection, { userId: miaUserId, workspaceId: acme }),
      ).toBe(0);
      const refresh = await tokenRequest(app.baseUrl, {
        grant_type: 'refresh_token',
        refresh_token: inAcme.tokens.refresh_token,
        client_id: inAcme.client.client_id,
      });
      expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    });
  });
});

describe('OAuth for chat assistants on the cloud offering', () => {
  let app: TestApp;
  let redirect: RedirectListener;

  beforeAll(async () => {
    app = await startTestApp({ DEPLOYMENT: 'cloud' });
    redirect = await startRedirectListener();
  });
  afterAll(async () => {
    await redirect?.close();
    await app?.close();
  });

  it('refuses consent in a workspace without a plan, and tokens once the plan is gone', async () => {
    const { client: person, session } = await WebClient.signUp(app.baseUrl, { email: 'cloud@acme.test' });
    const workspaceId = session.workspace.id;
    const client = await registerClient(app.baseUrl, redirect.url);
    const { verifier, challenge } = pkce();
    const authorize = () =>
      authorizeWithoutBrowser(app.baseUrl, {
        url: authorizationUrl(app.baseUrl, client, redirect.url, challenge),
        sessionCookie: person.sessionCookie,
        answer: { allow: workspaceId },
      });
    const refused = await authorize();
    expect(refused).toMatchObject({ refusedAt: 'consent', status: 403 });
    expect(refused.body.error.issues[0].customCode).toBe('workspacePlanRequired');
    expect(await app.dataSource.manager.countBy(OAuthConnection, { workspaceId })).toBe(0);

    await app.dataSource.query(`UPDATE workspaces SET plan_state = 'active' WHERE id = $1`, [workspaceId]);
    const allowed = await authorize();
    const tokens = await tokenRequest(app.baseUrl, {
      grant_type: 'authorization_code',
      code: new URL(allowed.location!).searchParams.get('code')!,
      redirect_uri: redirect.url,
      client_id: client.client_id,
      code_verifier: verifier,
    });
    expect((await mcpWithToken(app.baseUrl, tokens.body.access_token)).status).toBe(200);
    await app.dataSource.query(`UPDATE workspaces SET plan_state = 'none' WHERE id = $1`, [workspaceId]);
    const call = await mcpWithToken(app.baseUrl, tokens.body.access_token);
    expect(call).toMatchObject({ status: 403, body: { error: 'plan_required' } });
  });
});
