import type { FieldDef } from './field-kinds';
import type { RecordType } from './record-type.entity';

export interface TypeModel {
  id: string;
  name: string;
  builtin: RecordType['builtin'];
  fields: FieldDef[];
}

/** The record model of a workspace: types and fields with their stable ids, and the revision. */
export interface RecordModel {
  schemaRevision: number;
  types: TypeModel[];
}
