import type { DataSource, EntityManager } from 'typeorm';
import type { Config } from '../config';
import { AppError, authenticationError, authorizationError } from '../shared/app-error';
import { actorFromRow, actorQuery, type Actor } from '../identity/actor';
import { entityFromRow } from '../db/entity-from-row';
import { LastUsedWriter } from '../db/last-used';
import { PreparedSelect } from '../db/prepared';
import { API_KEY_PATTERN, hashApiKeyValue } from './api-key-value';
import { ApiKey } from './api-key.entity';
import { isExpired } from '../shared/credentials/api-key.rules';
import type { FailureThrottle } from '../security/failure-throttle';

/**
 * Why a key was refused. REST answers the AppError; MCP answers `{ error: <mcpError> }`
 * (docs/api.md#authentication).
 */
export type ApiKeyRefusal =
  'missing' | 'invalid' | 'expired' | 'plan_required' | 'member_inactive' | 'insufficient_permissions';

export class ApiKeyRefusedError extends AppError {
  override name = 'ApiKeyRefusedError';
  constructor(
    readonly reason: ApiKeyRefusal,
    error: AppError,
  ) {
    super(error.kind, error.issues, error.options);
  }

  /** The `error` value of the MCP endpoint's refusal body. */
  get mcpError(): string {
    return this.reason === 'missing' || this.reason === 'invalid' || this.reason === 'expired'
      ? 'invalid_api_key'
      : this.reason;
  }
}

const refusals: Record<ApiKeyRefusal, () => AppError> = {
  missing: () => authenticationError('Send your API key in the x-api-key header.', 'apiKeyMissing'),
  invalid: () => authenticationError('The API key is not valid.', 'apiKeyInvalid'),
  expired: () => authenticationError('The API key has expired. Create a new key.', 'apiKeyExpired'),
  plan_required: () =>
    authorizationError(
      'This workspace has no plan yet. Choose a plan to use API keys.',
      'workspacePlanRequired',
    ),
  member_inactive: () =>
    authorizationError('The owner of this API key is Inactive in the workspace.', 'memberInactive'),
  insufficient_permissions: () =>
    authorizationError(
      "The key owner's role needs Read access All on API & Webhooks to use API keys.",
      'insufficientPermissions',
    ),
};

const refuse = (reason: ApiKeyRefusal) => new ApiKeyRefusedError(reason, refusals[reason]());

/** Why a member may not act through a credential (an API key or an OAuth token) right now. */
export type AdmissionRefusal = Extract<
  ApiKeyRefusal,
  'plan_required' | 'member_inactive' | 'insufficient_permissions'
>;

/**
 * The one rule behind every call made with a credential, checked against current data
 * (docs/api.md#authentication): the cloud plan, the member's status, Read access All on API & Webhooks.
 */
export function admissionRefusal(
  actor: Actor,
  config: Pick<Config, 'DEPLOYMENT'>,
): AdmissionRefusal | undefined {
  // Only a workspace that never had a plan refuses keys; trial_ended and lapsed keep working.
  if (config.DEPLOYMENT === 'cloud' && actor.workspace.planState === 'none') return 'plan_required';
  if (actor.member.status !== 'active') return 'member_inactive';
  if (!actor.permissions.apiRead) return 'insufficient_permissions';
  return undefined;
}

export interface ApiKeyActor extends Actor {
  apiKeyId: string;
}

export class ApiKeyAuthenticator {
  private readonly lastUsed: LastUsedWriter;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: Pick<Config, 'DEPLOYMENT'>,
    /** Failed authentications per client address (src/security/failure-throttle.ts); none when absent. */
    private readonly throttle?: FailureThrottle,
  ) {
    this.lastUsed = new LastUsedWriter(dataSource, 'api_keys');
  }

  /**
   * The key's owner, acting in the key's workspace with their current role, or a refusal.
   * Everything is read fresh: a deleted key, a removed or inactivated owner, a role change or
   * a missing plan applies on the very next call. With the client's address (`from.ip`, Koa's
   * `ctx.ip`), an address that sent too many keys that are not valid is refused (429) before the
   * key is hashed or looked up, and a key that is not valid counts against its address.
   */
  async authenticate(
    value: string | undefined,
    from?: { ip: string },
    now = new Date(),
  ): Promise<ApiKeyActor> {
    if (!value) throw refuse('missing');
    if (from && this.throttle) this.throttle.check(from.ip);
    const found = API_KEY_PATTERN.test(value)
      ? await this.keyWithOwner({ hash: hashApiKeyValue(value) })
      : undefined;
    if (!found) {
      if (from && this.throttle) await this.throttle.fail(from.ip);
      throw refuse('invalid');
    }
    const actor = this.admit(found, now);
    await this.lastUsed.touch(found.key.id, found.key.lastUsedAt, now);
    return actor;
  }

  /**
   * A key that acted earlier, checked again as a call with it would be now (work it started that
   * runs later, such as a batch of resends): the same refusals as authenticate(), by the key's id.
   */
  async recheck(keyId: string, workspaceId: string, now = new Date()): Promise<ApiKeyActor> {
    const found = await this.keyWithOwner({ id: keyId, workspaceId });
    if (!found) throw refuse('invalid');
    return this.admit(found, now);
  }

  /**
   * The key and its owner as a member of the key's workspace, in one query (it runs on every
   * call). Removing a member deletes their keys; a key without a membership is not found either.
   */
  private async keyWithOwner(
    by: { hash: string } | { id: string; workspaceId: string },
  ): Promise<{ key: ApiKey; actor: Actor } | undefined> {
    const manager = this.dataSource.manager;
    const raw = 'hash' in by ? await keyByHash.first(manager, by) : await keyById.first(manager, by);
    return raw
      ? { key: entityFromRow(manager, ApiKey, raw, 'k'), actor: actorFromRow(manager, raw) }
      : undefined;
  }

  private admit({ key, actor }: { key: ApiKey; actor: Actor }, now: Date): ApiKeyActor {
    if (isExpired(key.expiresAt, now)) throw refuse('expired');
    const refusal = admissionRefusal(actor, this.config);
    if (refusal) throw refuse(refusal);
    return { ...actor, apiKeyId: key.id };
  }
}

const keyWithOwnerQuery = (manager: EntityManager) =>
  actorQuery(manager)
    .innerJoin(ApiKey, 'k', 'k.workspace_id = m.workspace_id AND k.user_id = m.user_id')
    .addSelect('k');
const keyByHash = new PreparedSelect(['hash'] as const, (manager, parameters) =>
  keyWithOwnerQuery(manager).where('k.key_hash = :hash', parameters),
);
const keyById = new PreparedSelect(['id', 'workspaceId'] as const, (manager, parameters) =>
  keyWithOwnerQuery(manager).where('k.id = :id AND k.workspace_id = :workspaceId', parameters),
);
