import { createHash } from 'node:crypto';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { SecretBox } from '../security/secret-box';
import { OAuthStoreRow } from './oauth-store.entity';
import { markClientUsed, marksClientUse } from './registration/unused-clients';

/** SHA-256 hex: how every id, uid and user code is kept (a token is its own id). */
export const hashOAuthId = (id: string) => createHash('sha256').update(id).digest('hex');

const epoch = () => Math.floor(Date.now() / 1000);

/**
 * oidc-provider's storage in PostgreSQL (`oauth_store`). Ids are stored hashed and the payload
 * without its `jti`, so neither an opaque access or refresh token nor a code can be read back
 * from the table; a lookup hashes the presented value. A confidential client's secret, which the
 * server must compare, is sealed (AES-256-GCM, as webhook secrets). Expired rows are never
 * returned, and each process deletes them every few minutes as it writes.
 */
export class PostgresOAuthAdapter implements Adapter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly model: string,
    private readonly box: SecretBox,
    private readonly sweeper: { due: () => boolean },
    /** The error oidc-provider answers as `invalid_request` (400), for a payload it cannot store. */
    private readonly invalidRequest: (description: string) => Error = (description) => new Error(description),
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    // PostgreSQL refuses NUL in JSON, and an authorization request's parameters (state, scope,
    // resource…) reach this payload as the client sent them: a NUL answered 500 (issue 34, item 7).
    // Refused here, where everything oidc-provider stores passes, before anything is written.
    if (holdsNul(payload)) throw this.invalidRequest('parameters must not contain NUL characters');
    if (this.sweeper.due()) await sweepExpiredOAuthRows(this.dataSource);
    const { jti: _id, ...stored } = payload;
    if (typeof stored.client_secret === 'string') stored.client_secret = this.box.seal(stored.client_secret);
    const grantId = payload.grantId ?? (this.model === 'Grant' ? id : null);
    // What is issued to a client after consent is its use (unused-clients.ts), noted in the same statement.
    const usedBy =
      marksClientUse(this.model) && typeof payload.clientId === 'string' ? payload.clientId : null;
    await this.dataSource.query(
      `${usedBy ? markClientUsed('$8') : ''}
       INSERT INTO oauth_store (model, id_hash, payload, grant_id, uid_hash, user_code_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (model, id_hash) DO UPDATE SET payload = $3, grant_id = $4, uid_hash = $5,
         user_code_hash = $6, expires_at = $7`,
      [
        this.model,
        hashOAuthId(id),
        JSON.stringify(stored),
        grantId,
        payload.uid ? hashOAuthId(payload.uid) : null,
        payload.userCode ? hashOAuthId(payload.userCode) : null,
        expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        ...(usedBy ? [hashOAuthId(usedBy)] : []),
      ],
    );
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('id_hash = :hash', hashOAuthId(id), id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('uid_hash = :hash', hashOAuthId(uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere('user_code_hash = :hash', hashOAuthId(userCode));
  }

  async consume(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE oauth_store SET payload = payload || jsonb_build_object('consumed', $3::bigint)
        WHERE model = $1 AND id_hash = $2`,
      [this.model, hashOAuthId(id), epoch()],
    );
  }

  async destroy(id: string): Promise<void> {
    await this.dataSource.manager.delete(OAuthStoreRow, { model: this.model, idHash: hashOAuthId(id) });
  }

  /** Every token and code of the grant, and the grant itself, of whichever model. */
  async revokeByGrantId(grantId: string): Promise<void> {
    await revokeOAuthGrant(this.dataSource.manager, grantId);
  }

  /**
   * The row's payload with its `jti` put back from the presented id. A lookup by uid (a Session,
   * to check whose it is) cannot know the id and returns the payload without it.
   */
  private async findWhere(where: string, hash: string, id?: string): Promise<AdapterPayload | undefined> {
    const row = await this.dataSource.manager
      .createQueryBuilder(OAuthStoreRow, 's')
      .where(`s.model = :model AND s.${where}`, { model: this.model, hash })
      .andWhere('(s.expires_at IS NULL OR s.expires_at > now())')
      .getOne();
    if (!row) return undefined;
    const payload = { ...(row.payload as AdapterPayload), ...(id === undefined ? {} : { jti: id }) };
    if (typeof payload.client_secret === 'string')
      payload.client_secret = this.box.open(payload.client_secret);
    return payload;
  }
}

/** Whether a NUL is in any string or key of `value`, at any depth. */
export function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
}

/** The adapter factory oidc-provider asks for, one adapter per model. */
export function postgresOAuthAdapter(
  dataSource: DataSource,
  box: SecretBox,
  invalidRequest?: (description: string) => Error,
): AdapterFactory {
  let lastSweep = 0;
  const sweeper = {
    due: () => {
      if (Date.now() - lastSweep < SWEEP_INTERVAL_MS) return false;
      lastSweep = Date.now();
      return true;
    },
  };
  return (model) => new PostgresOAuthAdapter(dataSource, model, box, sweeper, invalidRequest);
}

const SWEEP_INTERVAL_MS = 10 * 60_000;

/** Deletes a grant and everything issued under it (inside the caller's transaction, if any). */
export async function revokeOAuthGrant(manager: DataSource['manager'], grantId: string): Promise<void> {
  await manager.delete(OAuthStoreRow, { grantId });
}

/** Removes rows whose lifetime ended (reads ignore them anyway). */
export async function sweepExpiredOAuthRows(dataSource: DataSource): Promise<void> {
  await dataSource.query(`DELETE FROM oauth_store WHERE expires_at < now() - interval '1 minute'`);
}
