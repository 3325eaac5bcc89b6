import { Column, Entity } from 'typeorm';
import { EditedRow } from '../db/workspace-row';
import type { StoredValue } from '../record-model/field-kinds';

export type RecordStatus = 'active' | 'trashed' | 'erased';

/** A CRM record. (Named CrmRecord: `Record` is TypeScript's own.) */
@Entity({ name: 'records' })
export class CrmRecord extends EditedRow {
  @Column({ name: 'type_id', type: 'uuid' })
  typeId: string;

  /** Raised by one on every write that changes the record, trash and restore included. */
  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ type: 'jsonb', default: () => `'{}'::jsonb` })
  values: Record<string, StoredValue>;

  @Column({ type: 'text', default: 'active' })
  status: RecordStatus;

  @Column({ name: 'trashed_at', type: 'timestamptz', nullable: true })
  trashedAt: Date | null;
}
