import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { mcpWithToken, registerClient, startRedirectListener, tokenRequest } from '../helpers/oauth';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 15: the discovery documents of OAuth for chat assistants and the error answers, as an MCP
 * client meets them (RFC 9728 protected resource metadata, RFC 8414 authorization server
 * metadata, RFC 6750 `WWW-Authenticate`, RFC 7591 registration errors, RFC 6749 token errors).
 */
describe('OAuth discovery and error answers', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const json = async (path: string) => {
    const response = await fetch(`${app.baseUrl}${path}`);
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: (await response.json()) as any,
    };
  };

  const mcpPost = (headers: Record<string, string>) =>
    fetch(`${app.baseUrl}/api/v1/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  it('serves the MCP endpoint’s protected resource metadata (RFC 9728), path form and root', async () => {
    const expected = {
      resource: `${app.baseUrl}/api/v1/mcp`,
      authorization_servers: [`${app.baseUrl}/oauth`],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
      resource_name: 'CRM MCP endpoint',
      resource_documentation: `${app.baseUrl}/api-reference`,
    };
    for (const path of [
      '/.well-known/oauth-protected-resource/api/v1/mcp',
      '/.well-known/oauth-protected-resource',
    ]) {
      const answer = await json(path);
      expect(answer.status).toBe(200);
      expect(answer.type).toMatch(/^application\/json/);
      expect(answer.body).toEqual(expected);
    }
  });

  it('serves the authorization server metadata (RFC 8414) where clients look for it', async () => {
    const issuer = `${app.baseUrl}/oauth`;
    for (const path of [
      '/.well-known/oauth-authorization-server/oauth',
      '/.well-known/openid-configuration/oauth',
      '/oauth/.well-known/openid-configuration',
    ]) {
      const { status, body } = await json(path);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/reg`,
        revocation_endpoint: `${issuer}/token/revocation`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        authorization_response_iss_parameter_supported: true,
      });
      expect(body.token_endpoint_auth_methods_supported).toContain('none');
    }
  });

  it('the official SDK client’s discovery finds both documents', async () => {
    const resource = await discoverOAuthProtectedResourceMetadata(`${app.baseUrl}/api/v1/mcp`);
    expect(resource.authorization_servers).toEqual([`${app.baseUrl}/oauth`]);
    const server = await discoverAuthorizationServerMetadata(resource.authorization_servers![0]!);
    expect(server?.issuer).toBe(`${app.baseUrl}/oauth`);
    expect(server?.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('a call with neither key nor token: 401 naming the metadata in WWW-Authenticate', async () => {
    const response = await mcpPost({});
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp"`,
    );
    expect(await response.json()).toEqual({
      error: 'invalid_api_key',
      error_description: expect.any(String),
    });
  });

  it('an unknown token: 401 invalid_token; another scheme counts as no credential', async () => {
    const unknown = await mcpWithToken(app.baseUrl, 'not-a-token-we-issued');
    expect(unknown.status).toBe(401);
    expect(unknown.wwwAuthenticate).toBe(
      `Bearer error="invalid_token", resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/v1/mcp"`,
    );
    expect(unknown.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
    const basic = await mcpPost({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as any).error).toBe('invalid_api_key');
  });

  it('an API key still wins over a bearer token and keeps its refusals', async () => {
    const { client } = await WebClient.signUp(app.baseUrl, { email: 'keys@acme.test' });
    const key = (await client.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
    expect((await mcpPost({ 'x-api-key': key, authorization: 'Bearer whatever' })).status).toBe(200);
    const unknownKey = await mcpPost({ 'x-api-key': 'a'.repeat(64) });
    expect(unknownKey.status).toBe(401);
    expect(await unknownKey.json()).toMatchObject({ error: 'invalid_api_key' });
    expect(unknownKey.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('refuses a registration without a usable redirect URI (RFC 7591)', async () => {
    const register = (metadata: Record<string, unknown>) =>
      fetch(`${app.baseUrl}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(metadata),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));
    expect(await register({ client_name: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_redirect_uri' },
    });
    expect(await register({ client_name: 'x', redirect_uris: ['not a url'] })).toMatchObject({ status: 400 });
    expect(
      await register({
        client_name: 'x',
        redirect_uris: ['https://app.example/cb'],
        response_types: ['token'],
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
  });

  it('answers the token endpoint’s errors (RFC 6749 section 5.2)', async () => {
    const redirect = await startRedirectListener();
    try {
      const client = await registerClient(app.baseUrl, redirect.url);
      expect(
        await tokenRequest(app.baseUrl, {
          grant_type: 'authorization_code',
          code: 'made-up',
          redirect_uri: redirect.url,
          client_id: client.client_id,
          code_verifier: 'v'.repeat(43),
        }),
      ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      expect(
        await tokenRequest(app.baseUrl, {
          grant_type: 'password',
          username: 'a',
          password: 'b',
          client_id: client.client_id,
        }),
      ).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
      expect(
        await tokenRequest(app.baseUrl, {
          grant_type: 'refresh_token',
          refresh_token: 'x',
          client_id: 'nobody',
        }),
      ).toMatchObject({
        status: 401,
        body: { error: 'invalid_client' },
      });
    } finally {
      await redirect.close();
    }
  });

  it('keeps GET of the MCP endpoint at 405', async () => {
    const response = await fetch(`${app.baseUrl}/api/v1/mcp`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
