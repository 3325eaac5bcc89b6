import { MCP_SCOPE, mcpResourceUrl, oauthIssuer } from './oauth.constants';

/** RFC 9728's path form for the MCP endpoint: the well-known prefix, then the resource's path. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/api/v1/mcp';

export const protectedResourceMetadataUrl = (publicUrl: string) => `${publicUrl}${PROTECTED_RESOURCE_PATH}`;

/** Protected Resource Metadata (RFC 9728) of the MCP endpoint. */
export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: mcpResourceUrl(publicUrl),
    authorization_servers: [oauthIssuer(publicUrl)],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'CRM MCP endpoint',
    resource_documentation: `${publicUrl}/api-reference`,
  };
}

/**
 * The `WWW-Authenticate` of a 401 at the MCP endpoint (RFC 9728 section 5.1; RFC 6750 section 3):
 * where to find the metadata, and `error="invalid_token"` when a bearer token was refused.
 */
export function wwwAuthenticate(publicUrl: string, invalidToken: boolean): string {
  const metadata = `resource_metadata="${protectedResourceMetadataUrl(publicUrl)}"`;
  return invalidToken ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`;
}
