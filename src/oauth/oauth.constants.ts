/**
 * Lifetimes and names of OAuth for chat assistants (docs/api.md, "OAuth for chat assistants").
 * The spec leaves them open ("OAuth flow details (endpoints, scopes, token lifetimes): not shown").
 */

/** Where the authorization server lives: its issuer is `PUBLIC_URL` + this path. */
export const OAUTH_ISSUER_PATH = '/oauth';

/** The consent page of the web app; its JSON routes sit under it (the interaction cookie's path). */
export const CONSENT_PATH = '/consent';

/** The one scope: act as you on the MCP endpoint, with your role's access. */
export const MCP_SCOPE = 'mcp';

/** Access tokens are opaque and short: every call looks the token up, and revocation is immediate. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

/** A refresh token lasts 30 days; each use rotates it (the used one is spent) and restarts the 30 days. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A consent (grant) lasts a year at most, like a quick-connection key; then the person consents again. */
export const GRANT_TTL_SECONDS = 365 * 24 * 60 * 60;

/** An authorization code must be exchanged within a minute, once. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** The sign-in and consent step must be finished within 30 minutes. */
export const INTERACTION_TTL_SECONDS = 30 * 60;

/** The MCP endpoint's URL: the only resource (RFC 8707) tokens are issued for. */
export const mcpResourceUrl = (publicUrl: string) => `${publicUrl}/api/v1/mcp`;

export const oauthIssuer = (publicUrl: string) => `${publicUrl}${OAUTH_ISSUER_PATH}`;
