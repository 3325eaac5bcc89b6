/**
 * What a client registering itself (RFC 7591, `POST /oauth/reg`) may say (issue 24): a few redirect
 * URIs, each a place only the app can receive the code at, and a name short enough to show whole on
 * the consent page. oidc-provider applies these on every registration and whenever it loads a
 * stored client (`extraClientMetadata` in oauth-provider.ts); its own checks still follow. A
 * refusal is the `error_description`: one that starts with `redirect_uris` is answered as
 * `invalid_redirect_uri`, any other as `invalid_client_metadata` (oidc-provider's InvalidClientMetadata).
 */

import { controlCharacterIssues } from '../../shared/control-characters';
import { hiddenCharacterIn } from '../../shared/hidden-characters';

/** Room for an app's web, desktop and development callbacks; a thousand is a flood, not a client. */
export const MAX_REDIRECT_URIS = 10;

/** Long enough for any product's name, short enough to show whole at consent. */
export const MAX_CLIENT_NAME_LENGTH = 100;

/**
 * Hosts a plain-http redirect URI may name: the person's own machine, where a desktop or
 * command-line app listens on a port of its choosing (RFC 8252 section 7.3). `localhost` is
 * accepted too: RFC 8252 section 8.3 only recommends the IP literals over it (a resolver could map
 * the name elsewhere, or the app listen beyond loopback: risks of the person's own machine, not a
 * way for someone else to receive the code), and MCP clients in use (Claude Code, the MCP SDK's
 * examples) register `http://localhost:<port>/…`. Other loopback addresses (127.0.0.2) are not.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `redirect_uris` is refused, or undefined. A value that is not a list is left to oidc-provider. */
export function redirectUrisRefusal(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  if (value.length > MAX_REDIRECT_URIS) return `redirect_uris must hold at most ${MAX_REDIRECT_URIS} URIs`;
  for (const [index, uri] of value.entries()) {
    const refusal = redirectUriRefusal(uri);
    if (refusal) return `redirect_uris[${index}] ${refusal}`;
  }
  return undefined;
}

function redirectUriRefusal(uri: unknown): string | undefined {
  if (typeof uri !== 'string') return 'must be a string';
  const url = URL.parse(uri);
  if (!url) return 'must be a valid URL';
  // RFC 6749 section 3.1.2: the answer's parameters would be lost, or read by a script there.
  if (uri.includes('#')) return 'must not contain a fragment';
  // https://claude.ai@evil.example/ reads as claude.ai and goes to evil.example.
  if (url.username || url.password) return 'must not contain a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return 'must use https, or http on a loopback address (127.0.0.1, [::1] or localhost)';
}

/**
 * Why `client_name` is refused, or undefined. The name stays optional (RFC 7591): without one the
 * consent page shows the client id.
 */
export function clientNameRefusal(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return 'client_name must be a string';
  const length = [...value].length;
  if (value.trim() === '' || length > MAX_CLIENT_NAME_LENGTH) {
    return `client_name must be 1 to ${MAX_CLIENT_NAME_LENGTH} characters, not only spaces`;
  }
  const hidden = hiddenCharacterIn(value);
  if (hidden)
    return `client_name must not contain control, direction or other invisible characters (${hidden})`;
  return undefined;
}

/**
 * Why the metadata is refused for a control character in any of its text (issue 34, item 7): every
 * URI (redirect_uris, client_uri, logo_uri, policy_uri, tos_uri, jwks_uri, ...), contact, name and
 * key, at any depth, as the request parser holds REST and MCP text (src/shared/control-characters.ts).
 * A NUL reached PostgreSQL's JSON store and answered 500. The message names the field, so a refused
 * redirect URI is answered as `invalid_redirect_uri` and anything else as `invalid_client_metadata`.
 */
export function controlCharacterRefusal(metadata: object): string | undefined {
  const [issue] = controlCharacterIssues({ ...metadata });
  if (!issue) return undefined;
  const [field, ...rest] = issue.path;
  const at = `${String(field)}${rest.map((part) => `[${JSON.stringify(part)}]`).join('')}`;
  return `${at} must not contain control characters (NUL, line breaks and the like)`;
}
