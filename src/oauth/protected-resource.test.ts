import { protectedResourceMetadata, wwwAuthenticate } from './protected-resource';

describe('the MCP endpoint as an OAuth protected resource', () => {
  const publicUrl = 'https://crm.example';

  it('names the MCP endpoint and the authorization server (RFC 9728)', () => {
    expect(protectedResourceMetadata(publicUrl)).toMatchObject({
      resource: 'https://crm.example/api/v1/mcp',
      authorization_servers: ['https://crm.example/oauth'],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  });

  it('points a 401 at the metadata, with invalid_token when a token was refused (RFC 6750 section 3)', () => {
    const metadata =
      'resource_metadata="https://crm.example/.well-known/oauth-protected-resource/api/v1/mcp"';
    expect(wwwAuthenticate(publicUrl, false)).toBe(`Bearer ${metadata}`);
    expect(wwwAuthenticate(publicUrl, true)).toBe(`Bearer error="invalid_token", ${metadata}`);
  });
});
