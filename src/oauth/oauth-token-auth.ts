import type { FailureThrottle } from '../security/failure-throttle';
import type { Provider } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import { admissionRefusal, type AdmissionRefusal } from '../api-keys/api-key-auth';
import { entityFromRow } from '../db/entity-from-row';
import { actorFromRow, actorQuery, type Actor } from '../identity/actor';
import { OAuthConnection } from './oauth-connection.entity';
import { LastUsedWriter } from '../db/last-used';
import { mcpResourceUrl } from './oauth.constants';
import { authenticationError, authorizationError, type AppError } from '../shared/app-error';

/** Who acts through an OAuth access token: the connection's owner, in its workspace. */
export interface OAuthActor extends Actor {
  oauthConnectionId: string;
  /** The person connected the app to read only (at consent): it gets only the tools that change nothing. */
  readOnlyConnection: boolean;
}

/**
 * Why a bearer token was refused at the MCP endpoint. `invalid_token` (401) covers an unknown,
 * expired or revoked token, one issued for another resource, and a connection that is gone; the
 * others are the 403s a key gets in the same case (docs/api.md#authentication).
 */
export type OAuthRefusal = 'invalid_token' | AdmissionRefusal;

const DESCRIPTIONS: Record<OAuthRefusal, string> = {
  invalid_token: 'The access token is not valid for this endpoint: it is unknown, expired or revoked.',
  plan_required: 'This workspace has no plan yet. Choose a plan to use connected apps.',
  member_inactive: 'The person who connected this app is Inactive in the workspace.',
  insufficient_permissions:
    "The connected person's role needs Read access All on API & Webhooks to use connected apps.",
};

/** The REST refusals (spec's error body) of the same cases, for work a connection started earlier. */
const RECHECK_REFUSALS: Record<AdmissionRefusal, () => AppError> = {
  plan_required: () => authorizationError(DESCRIPTIONS.plan_required, 'workspacePlanRequired'),
  member_inactive: () => authorizationError(DESCRIPTIONS.member_inactive, 'memberInactive'),
  insufficient_permissions: () =>
    authorizationError(DESCRIPTIONS.insufficient_permissions, 'insufficientPermissions'),
};

export class OAuthTokenRefusedError extends Error {
  override name = 'OAuthTokenRefusedError';
  constructor(readonly reason: OAuthRefusal) {
    super(DESCRIPTIONS[reason]);
  }

  get status(): number {
    return this.reason === 'invalid_token' ? 401 : 403;
  }
}

/** `Authorization: Bearer <token>` → the token, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Checks an OAuth access token on each MCP call, against current data: the token (looked up, so
 * a revoked one fails at once), its audience (the MCP endpoint), its connection (the workspace
 * chosen at consent; gone after a disconnect or the member's removal), then the owner's role,
 * status and plan exactly as for a key.
 */
export class OAuthTokenAuthenticator {
  private readonly lastUsed: LastUsedWriter;

  constructor(
    private readonly provider: () => Provider,
    private readonly dataSource: DataSource,
    private readonly config: Pick<Config, 'DEPLOYMENT' | 'PUBLIC_URL'>,
    /** Failed authentications per client address, shared with API keys (src/security/failure-throttle.ts). */
    private readonly throttle?: FailureThrottle,
  ) {
    this.lastUsed = new LastUsedWriter(dataSource, 'oauth_connections');
  }

  /**
   * The token's connection and its owner, or a refusal. With the client's address (`from.ip`), an
   * address that sent too many credentials that are not valid (keys or tokens) is refused (429)
   * before the token is looked up, and an `invalid_token` counts against its address.
   */
  async authenticate(value: string, from?: { ip: string }, now = new Date()): Promise<OAuthActor> {
    if (from && this.throttle) this.throttle.check(from.ip);
    try {
      return await this.lookUp(value, now);
    } catch (error) {
      if (
        from &&
        this.throttle &&
        error instanceof OAuthTokenRefusedError &&
        error.reason === 'invalid_token'
      )
        await this.throttle.fail(from.ip);
      throw error;
    }
  }

  private async lookUp(value: string, now: Date): Promise<OAuthActor> {
    const token = await this.provider().AccessToken.find(value);
    if (!token || token.isExpired) throw new OAuthTokenRefusedError('invalid_token');
    const audience = (token as { aud?: string | string[] }).aud;
    const resource = mcpResourceUrl(this.config.PUBLIC_URL);
    if (audience !== resource && !(Array.isArray(audience) && audience.includes(resource))) {
      throw new OAuthTokenRefusedError('invalid_token');
    }
    const found = token.grantId ? await this.connectionWithOwner({ grantId: token.grantId }) : undefined;
    // Disconnected, or the member removed (which deletes the connection): the token is dead.
    if (!found) throw new OAuthTokenRefusedError('invalid_token');
    const { connection, actor } = found;
    if (connection.userId !== token.accountId || connection.clientId !== token.clientId) {
      throw new OAuthTokenRefusedError('invalid_token');
    }
    const refusal = admissionRefusal(actor, this.config);
    if (refusal) throw new OAuthTokenRefusedError(refusal);
    await this.lastUsed.touch(connection.id, connection.lastUsedAt, now);
    return { ...actor, oauthConnectionId: connection.id, readOnlyConnection: connection.readOnly };
  }

  /**
   * A connection that acted earlier (a batch of resends it started, running later), checked again
   * as a call with its token would be now; refused with the REST refusals of the same cases.
   */
  async recheck(connectionId: string, workspaceId: string): Promise<OAuthActor> {
    const found = await this.connectionWithOwner({ id: connectionId, workspaceId });
    if (!found) {
      throw authenticationError(
        'The connected app was disconnected, or the person who connected it left the workspace.',
        'oauthConnectionRevoked',
      );
    }
    const refusal = admissionRefusal(found.actor, this.config);
    if (refusal) throw RECHECK_REFUSALS[refusal]();
    return {
      ...found.actor,
      oauthConnectionId: found.connection.id,
      readOnlyConnection: found.connection.readOnly,
    };
  }

  /** The connection and its owner as a member of its workspace, in one query (every call). */
  private async connectionWithOwner(
    by: { grantId: string } | { id: string; workspaceId: string },
  ): Promise<{ connection: OAuthConnection; actor: Actor } | undefined> {
    const manager = this.dataSource.manager;
    const query = actorQuery(manager)
      .innerJoin(OAuthConnection, 'c', 'c.workspace_id = m.workspace_id AND c.user_id = m.user_id')
      .addSelect('c');
    const raw = await (
      'grantId' in by
        ? query.where('c.grant_id = :grantId', by)
        : query.where('c.id = :id AND c.workspace_id = :workspaceId', by)
    ).getRawOne<Record<string, unknown>>();
    return raw
      ? { connection: entityFromRow(manager, OAuthConnection, raw, 'c'), actor: actorFromRow(manager, raw) }
      : undefined;
  }
}
