import { createHmac, createPrivateKey } from 'node:crypto';
import type { Configuration, Provider } from 'oidc-provider';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { SecretBox } from '../security/secret-box';
import {
  clientNameRefusal,
  controlCharacterRefusal,
  redirectUrisRefusal,
} from './registration/client-metadata-rules';
import { postgresOAuthAdapter } from './oauth-adapter';
import { OAuthConnection } from './oauth-connection.entity';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  CONSENT_PATH,
  GRANT_TTL_SECONDS,
  INTERACTION_TTL_SECONDS,
  MCP_SCOPE,
  REFRESH_TOKEN_TTL_SECONDS,
  mcpResourceUrl,
  oauthIssuer,
} from './oauth.constants';
import { REGISTRATION_PATH, RegistrationLimit, limitRegistrations } from './registration/registration-limit';

/** A secret of its own for each use, derived from ENCRYPTION_KEY (the same in every API process). */
const derive = (encryptionKey: string, purpose: string) =>
  createHmac('sha256', Buffer.from(encryptionKey, 'hex')).update(`oauth:${purpose}`).digest();

/**
 * The signing key oidc-provider needs to start (and would sign ID tokens with, were `openid` asked
 * for). Derived, not generated, so every API process serves the same JWKS.
 */
function signingKeys(encryptionKey: string) {
  const seed = derive(encryptionKey, 'signing-key');
  // PKCS#8 of an Ed25519 private key is a fixed 16-byte prefix and the 32-byte seed.
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  const key = createPrivateKey({ key: Buffer.concat([prefix, seed]), format: 'der', type: 'pkcs8' });
  return { keys: [{ ...key.export({ format: 'jwk' }), kid: 'oauth-1', use: 'sig', alg: 'EdDSA' }] };
}

type OidcProvider = typeof import('oidc-provider');

/**
 * oidc-provider, loaded when the API first serves OAuth rather than by every process that builds
 * the services (a worker, the CLI, a start refused for its configuration): on Node.js 20 it prints
 * an "Unsupported runtime" warning when loaded (it asks for 22 LTS), which would break their
 * one-line outputs.
 */
function loadOidcProvider(): OidcProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a deferred load, see above
  return require('oidc-provider') as OidcProvider;
}

/**
 * Every authorization request goes through the web app's consent page, whatever oidc-provider's
 * own session remembers: the person signed in to the web app now, the workspace they choose and
 * their role there decide, not an earlier consent in the same browser.
 */
function consentEveryTime({ interactionPolicy }: OidcProvider) {
  const policy = interactionPolicy.base();
  policy
    .get('login')!
    .checks.add(
      new interactionPolicy.Check('web_app_consent', 'the web app decides who signs in', (ctx) =>
        ctx.oidc.result?.login
          ? interactionPolicy.Check.NO_NEED_TO_PROMPT
          : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  return policy;
}

/**
 * The authorization server (oidc-provider: OpenID-certified, Koa-native). Only what MCP clients
 * need is on: dynamic registration (RFC 7591, within limits), the authorization code grant with
 * PKCE S256 (required for every client), resource indicators (RFC 8707) with the MCP endpoint as
 * the only resource, opaque access tokens, rotating refresh tokens, revocation (RFC 7009).
 */
export function createOAuthProvider(deps: {
  config: Pick<Config, 'PUBLIC_URL' | 'ENCRYPTION_KEY' | 'TRUST_PROXY'>;
  dataSource: DataSource;
  box: SecretBox;
  logger: Logger;
}): Provider {
  const { config, dataSource } = deps;
  const oidc = loadOidcProvider();
  if (!config.ENCRYPTION_KEY) throw new Error('ENCRYPTION_KEY must be resolved before the OAuth server');
  const resource = mcpResourceUrl(config.PUBLIC_URL);
  const configuration: Configuration = {
    adapter: postgresOAuthAdapter(
      dataSource,
      deps.box,
      (description) => new oidc.errors.InvalidRequest(description),
    ),
    jwks: signingKeys(config.ENCRYPTION_KEY),
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    responseTypes: ['code'],
    // `mcp` is also the MCP endpoint's scope (getResourceServerInfo); clients register it as theirs.
    scopes: [MCP_SCOPE, 'offline_access'],
    claims: { openid: ['sub'] },
    pkce: { required: () => true },
    routes: { registration: REGISTRATION_PATH },
    // oidc-provider's way to extend its checks of standard metadata: these run before its own, on
    // every registration and whenever it loads a stored client (one registered before a rule
    // existed no longer loads, and must register again).
    extraClientMetadata: {
      properties: ['redirect_uris', 'client_name'],
      // Called once per property, with the whole metadata: control characters are looked for in all
      // of it on the first call, before either field's own rule.
      validator: (_ctx, key, value, metadata) => {
        const refusal =
          key === 'redirect_uris'
            ? (controlCharacterRefusal(metadata) ?? redirectUrisRefusal(value))
            : clientNameRefusal(value);
        if (refusal) throw new oidc.errors.InvalidClientMetadata(refusal);
      },
    },
    features: {
      devInteractions: { enabled: false },
      // Open to any client (no initial access token), within limits: limitRegistrations below, and
      // the metadata rules of extraClientMetadata. Nothing manages a registration afterwards, so no
      // registration access token is issued (it would be one more row per registration).
      registration: { enabled: true, issueRegistrationAccessToken: false },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource gets the MCP endpoint; any other resource is refused.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource)
            throw new oidc.errors.InvalidTarget('the only resource is the MCP endpoint');
          return {
            scope: MCP_SCOPE,
            audience: resource,
            accessTokenFormat: 'opaque',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
          };
        },
      },
    },
    // Refresh tokens for every client allowed the grant (no offline_access needed); rotated on use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
      Session: INTERACTION_TTL_SECONDS,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
    },
    // A consent lives in its connection: only the grant the consent just made is ever reused.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    // The workspace chosen at consent travels with each access token (and is read again per call).
    extraTokenClaims: async (_ctx, token) => {
      const grantId = (token as { grantId?: string }).grantId;
      if (!grantId) return undefined;
      const connection = await dataSource.manager.findOneBy(OAuthConnection, { grantId });
      return connection ? { workspace_id: connection.workspaceId } : undefined;
    },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: {
      policy: consentEveryTime(oidc),
      url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}`,
    },
    cookies: {
      names: { session: 'oauth_session', interaction: 'oauth_interaction', resume: 'oauth_resume' },
      keys: [derive(config.ENCRYPTION_KEY, 'cookie-key').toString('base64url')],
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    renderError: async (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  };
  const provider = new oidc.Provider(oauthIssuer(config.PUBLIC_URL), configuration);
  provider.proxy = config.TRUST_PROXY;
  // Before any of its routes: a registration over the address's limit is refused unread.
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  provider.use(limitRegistrations(new RegistrationLimit(pool)));
  // Its own answers are RFC 6749's; an unexpected failure is logged here as the rest of the API's are.
  provider.on('server_error', (_ctx: unknown, err: unknown) =>
    deps.logger.error({ err }, 'OAuth server error'),
  );
  return provider;
}
