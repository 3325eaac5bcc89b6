import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { OAuthConnection } from '../../src/oauth/oauth-connection.entity';
import { screenshot, useBrowserSession } from '../helpers/browser';
import {
  authorizationUrl,
  mcpWithToken,
  pkce,
  registerClient,
  startRedirectListener,
  TestOAuthClientProvider,
  type RedirectListener,
} from '../helpers/oauth';
import type { TestApp } from '../helpers/test-app';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

/**
 * Issue 15, done when: the official MCP TypeScript SDK client runs its OAuth flow against the
 * running service (discovery, dynamic registration, the authorize step with the consent driven in
 * real Chromium, the token, tools/list, a refresh), and then a role without Read access All, the
 * member's removal and Disconnect in Settings each refuse the next call. The steps build on each
 * other, in order. BROWSER_SHOTS=/some/dir saves a screenshot of each step.
 */
describe('the custom connector for chat assistants: the SDK client over OAuth, consent in Chromium', () => {
  const session = useBrowserSession();
  let app: TestApp;
  let page: Page;
  let redirect: RedirectListener;
  let admin: WebClient;
  let roles: { connector: string; noApi: string };
  let mia: { userId: string; password: string };
  let first: { provider: TestOAuthClientProvider; client: Client };

  beforeAll(async () => {
    ({ app, page } = session);
    redirect = await startRedirectListener();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'ada@acme.test', workspaceName: 'Acme' })).client;
    const connector = await admin.ok('POST', '/app/api/roles', {
      name: 'Connector',
      apiRead: 'all',
      apiCreate: true,
    });
    const noApi = await admin.ok('POST', '/app/api/roles', { name: 'No API' });
    roles = { connector: connector.id, noApi: noApi.id };
    const added = await addMemberByInvitation(app.baseUrl, admin, {
      email: 'mia@acme.test',
      name: 'Mia',
      roleId: roles.connector,
    });
    mia = { userId: added.userId, password: added.password };
  });
  afterAll(async () => {
    await first?.client.close().catch(() => undefined);
    await redirect?.close();
  });

  const mcpUrl = () => new URL(`${app.baseUrl}/api/v1/mcp`);
  const setMia = (change: Record<string, string>) =>
    admin.ok('PATCH', `/app/api/members/${mia.userId}`, change);

  /**
   * The SDK client's whole flow: the first call is refused (401 with the metadata's address), the
   * SDK discovers and registers, and asks to send the person to the authorization URL, which
   * Chromium opens; the person (signed in, or signing in now) allows it for Acme; the code
   * reaches the client's loopback redirect URI, the SDK exchanges it, and connects.
   */
  async function connectOverOAuth(name: string, signIn: boolean, readOnly = false) {
    const provider = new TestOAuthClientProvider(redirect.url, name);
    const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    const refused = await new Client({ name, version: '1.0.0' })
      .connect(transport)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(provider.clientInformation()?.client_id).toEqual(expect.any(String));
    const authorization = provider.authorizationUrl!;
    expect(authorization.origin + authorization.pathname).toBe(`${app.baseUrl}/oauth/auth`);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl().href);

    await page.goto(authorization.href);
    if (signIn) {
      await page.getByTestId('sign-in-form').waitFor();
      expect(new URL(page.url()).searchParams.get('next')).toMatch(/^\/consent\//);
      await page.getByTestId('sign-in-email').fill('mia@acme.test');
      await page.getByTestId('sign-in-password').fill(mia.password);
      await page.getByTestId('sign-in-submit').click();
    }
    await page.getByTestId('consent-page').waitFor();
    await expect(page.getByTestId('consent-client-name').textContent()).resolves.toBe(name);
    await expect(page.getByTestId('consent-redirect-host').textContent()).resolves.toBe(
      new URL(redirect.url).host,
    );
    await expect(page.getByTestId('consent-client').textContent()).resolves.toBe(
      `“${name}” — will return you to ${new URL(redirect.url).host}`,
    );
    await page.locator('[data-testid=consent-workspace][data-workspace-name="Acme"]').check();
    if (readOnly) await page.getByTestId('consent-read-only').check();
    await screenshot(page, `oauth-consent-${name.replace(/\W+/g, '-')}`);
    await page.getByTestId('consent-allow').click();
    const answer = await redirect.next();
    expect(answer.error).toBeUndefined();
    expect(answer.iss).toBe(`${app.baseUrl}/oauth`);

    await transport.finishAuth(answer.code!);
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    return { provider, client };
  }

  it('the quick connection for the custom connector shows the MCP URL to paste and creates no key', async () => {
    const signedIn = await WebClient.signIn(app.baseUrl, 'mia@acme.test', mia.password);
    await page.goto(`${app.baseUrl}/sign-in`);
    await page.getByTestId('sign-in-email').fill('mia@acme.test');
    await page.getByTestId('sign-in-password').fill(mia.password);
    await page.getByTestId('sign-in-submit').click();
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('nav-api-keys').click();
    await page.getByTestId('add-api-key').click();
    await page.getByTestId('add-quick-connection').click();
    await page.getByTestId('quick-connection-claude-connector').click();
    await expect(page.getByTestId('quick-mcp-url').textContent()).resolves.toBe(mcpUrl().href);
    await page.getByTestId('quick-no-key').waitFor();
    await screenshot(page, 'oauth-quick-connection');
    expect((await signedIn.client.ok('GET', '/app/api/api-keys')).data).toEqual([]);
    // Signed out again: the flow below starts in a browser that must sign in.
    await page.context().clearCookies();
  });

  it('connects: 401, discovery, registration, sign-in and consent in Chromium, the token, tools/list', async () => {
    first = await connectOverOAuth('Claude test', true);
    const { tools } = await first.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('manage_webhooks');
    const connection = await app.dataSource.manager.findOneByOrFail(OAuthConnection, { userId: mia.userId });
    expect(connection).toMatchObject({ clientName: 'Claude test', lastUsedAt: expect.any(Date) });
  });

  it('the consent page shows a client’s claimed name beside the host it will return to, so a borrowed name shows', async () => {
    // Anyone may register "Claude": what the name cannot change is where the answer goes.
    const impostor = await registerClient(app.baseUrl, 'https://evil.example/callback', 'Claude');
    const { challenge } = pkce();
    await page.goto(authorizationUrl(app.baseUrl, impostor, 'https://evil.example/callback', challenge));
    await page.getByTestId('consent-page').waitFor();
    await expect(page.getByTestId('consent-client').textContent()).resolves.toBe(
      '“Claude” — will return you to evil.example',
    );
    await expect(page.getByTestId('consent-title').textContent()).resolves.not.toContain('Claude');
    await page.getByTestId('consent-identity-hint').waitFor();
    await screenshot(page, 'oauth-consent-borrowed-name');
    // Left unanswered: nothing is granted and the browser never goes to evil.example.
    expect(await app.dataSource.manager.countBy(OAuthConnection, { clientId: impostor.client_id })).toBe(0);
  });

  it('refreshes: once the access token has expired, the SDK rotates the refresh token and the call works', async () => {
    const before = first.provider.tokens()!;
    await app.dataSource.query(
      `UPDATE oauth_store SET expires_at = now() - interval '1 hour' WHERE model = 'AccessToken'`,
    );
    expect((await mcpWithToken(app.baseUrl, before.access_token)).status).toBe(401);
    await expect(first.client.listTools()).resolves.toHaveProperty('tools');
    const after = first.provider.tokens()!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toEqual(expect.any(String));
    expect(after.refresh_token).not.toBe(before.refresh_token);
  });

  it('a role without Read access All refuses the next call with the spec’s 403; restored, it works again', async () => {
    await setMia({ roleId: roles.noApi });
    await expect(first.client.listTools()).rejects.toMatchObject({ code: 403 });
    const raw = await mcpWithToken(app.baseUrl, first.provider.tokens()!.access_token);
    expect(raw).toMatchObject({ status: 403, body: { error: 'insufficient_permissions' } });
    expect(raw.body.error_description).toEqual(expect.any(String));
    await setMia({ roleId: roles.connector });
    await expect(first.client.listTools()).resolves.toHaveProperty('tools');
  });

  it('Disconnect in Settings → Connected apps refuses the next call', async () => {
    await page.goto(`${app.baseUrl}/settings/connected-apps`);
    const card = page.getByTestId('connected-app-card').filter({ hasText: 'Claude test' });
    await card.waitFor();
    await expect(card.getByTestId('connected-app-last-used').textContent()).resolves.not.toBe('Never');
    await screenshot(page, 'oauth-connected-apps');
    await card.getByTestId('connected-app-disconnect').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('connected-apps-empty').waitFor();

    const raw = await mcpWithToken(app.baseUrl, first.provider.tokens()!.access_token);
    expect(raw).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    // The SDK tries its refresh token, which is revoked too, and asks for a new authorization.
    await expect(first.client.listTools()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('an app connected with “Only let it read” lists no write tool, and Connected apps says so', async () => {
    const reader = await connectOverOAuth('Reader app', false, true);
    const names = (await reader.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['get_record_model', 'list_webhooks', 'get_delivery']));
    expect(names).not.toContain('manage_webhooks');
    expect(names).not.toContain('create_record');
    await page.goto(`${app.baseUrl}/settings/connected-apps`);
    const card = page.getByTestId('connected-app-card').filter({ hasText: 'Reader app' });
    await expect(card.getByTestId('connected-app-access').textContent()).resolves.toBe(
      'Read only: changes nothing',
    );
    await screenshot(page, 'oauth-connected-apps-read-only');
    await reader.client.close();
  });

  it('removing the member refuses the next call of another connection at once', async () => {
    const second = await connectOverOAuth('Claude test 2', false);
    await expect(second.client.listTools()).resolves.toHaveProperty('tools');
    await admin.ok('DELETE', `/app/api/members/${mia.userId}`);
    const raw = await mcpWithToken(app.baseUrl, second.provider.tokens()!.access_token);
    expect(raw).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    await expect(second.client.listTools()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(await app.dataSource.manager.countBy(OAuthConnection, { userId: mia.userId })).toBe(0);
    await second.client.close().catch(() => undefined);
  });
});
