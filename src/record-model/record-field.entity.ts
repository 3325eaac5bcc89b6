import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { FieldConfig, FieldKind } from './field-kinds';

/** A field of a record type. Its id is stable: renaming keeps it. */
@Entity({ name: 'record_fields' })
export class RecordField {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

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
