import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One stored object of the authorization server (oidc-provider's models: Client, Grant, Session,
 * Interaction, AuthorizationCode, AccessToken, RefreshToken, …). Every id is kept as its SHA-256:
 * opaque tokens and codes are their own ids, so the table holds no usable token.
 */
@Entity({ name: 'oauth_store' })
export class OAuthStoreRow {
  @PrimaryColumn({ type: 'text' })
  model: string;

  @PrimaryColumn({ name: 'id_hash', type: 'text' })
  idHash: string;

  /** The model's payload without its `jti` (the id itself). */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** The grant the object belongs to (tokens, codes; a Grant row carries its own id): revocation. */
  @Column({ name: 'grant_id', type: 'text', nullable: true })
  grantId: string | null;

  @Column({ name: 'uid_hash', type: 'text', nullable: true })
  uidHash: string | null;

  @Column({ name: 'user_code_hash', type: 'text', nullable: true })
  userCodeHash: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** Client rows only: when a grant or token was last issued to it, to the hour (unused-clients.ts). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
