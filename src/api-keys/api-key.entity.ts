import { Column, CreateDateColumn, Entity } from 'typeorm';
import { PersonalRow } from '../db/workspace-row';
import type { ApiKeyKind } from './api-key-view';

export type { ApiKeyKind };

/**
 * docs/api.md#authentication. The value itself is never stored: only its SHA-256. Its user is the
 * owner, the creating user: only the owner sees and can delete the key.
 */
@Entity({ name: 'api_keys' })
export class ApiKey extends PersonalRow {
  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  kind: ApiKeyKind;

  /** The quick-connection client kind (e.g. `cursor`), null for a standard key. */
  @Column({ name: 'client_kind', type: 'text', nullable: true })
  clientKind: string | null;

  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
