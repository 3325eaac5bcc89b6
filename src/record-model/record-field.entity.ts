import { Column, CreateDateColumn, Entity } from 'typeorm';
import { WorkspaceRow } from '../db/workspace-row';
import type { FieldConfig, FieldKind } from './field-kinds';

/** A field of a record type. Its id is stable: renaming keeps it. */
@Entity({ name: 'record_fields' })
export class RecordField extends WorkspaceRow {
  @Column({ name: 'type_id', type: 'uuid' })
  typeId: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  kind: FieldKind;

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  config: FieldConfig;

  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
