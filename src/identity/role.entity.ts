import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

import { BUILTIN_ROLES, type BuiltinRole, type ReadAccess } from './identity-view';

export { BUILTIN_ROLES, type BuiltinRole };

/** Read access on the API & Webhooks row (docs/api.md#permissions). */
export type ApiReadAccess = ReadAccess;
export type RecordReadAccess = ReadAccess;

@Entity({ name: 'roles' })
export class Role {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'text' })
  name: string;

  /** Set for the three built-in roles of docs/api.md#permissions; null for custom roles. */
  @Column({ type: 'text', nullable: true })
  builtin: BuiltinRole | null;

  @Column({ name: 'is_admin', type: 'boolean', default: false })
  isAdmin: boolean;

  @Column({ name: 'api_read', type: 'text', default: 'none' })
  apiRead: ApiReadAccess;

  @Column({ name: 'api_create', type: 'boolean', default: false })
  apiCreate: boolean;

  @Column({ name: 'api_edit', type: 'boolean', default: false })
  apiEdit: boolean;

  @Column({ name: 'api_delete', type: 'boolean', default: false })
  apiDelete: boolean;

  /** Record read access for types not listed in `recordAccess`. */
  @Column({ name: 'default_record_access', type: 'text', default: 'none' })
  defaultRecordAccess: RecordReadAccess;

  /** Per record type id: read none or all. */
  @Column({ name: 'record_access', type: 'jsonb', default: () => `'{}'::jsonb` })
  recordAccess: Record<string, RecordReadAccess>;

  /** Field ids (stored or calculated) whose values this role sees as `restricted`. */
  @Column({ name: 'restricted_field_ids', type: 'jsonb', default: () => `'[]'::jsonb` })
  restrictedFieldIds: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
