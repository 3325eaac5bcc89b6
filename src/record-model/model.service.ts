import type { EntityManager } from 'typeorm';
import { notFoundError } from '../shared/app-error';
import { canonicalId } from '../shared/id-spelling';
import type { FieldDef } from './field-kinds';
import type { RecordAccess } from './record-access';
import type { RecordField } from './record-field.entity';

import type { RecordModel, TypeModel } from './record-model';
import type { RecordType } from './record-type.entity';

export type { RecordModel, TypeModel };

export const toFieldDef = (field: RecordField): FieldDef => ({
  id: field.id,
  typeId: field.typeId,
  name: field.name,
  kind: field.kind,
  config: field.config,
  position: field.position,
});

/**
 * The model in one query (it runs in every record write and every dispatch): the revision, the
 * live types in creation order, and their live fields by position.
 */
export async function loadModel(manager: EntityManager, workspaceId: string): Promise<RecordModel> {
  const rows: ModelRow[] = await manager.query(
    `SELECT w.schema_revision, t.id AS type_id, t.name AS type_name, t.builtin,
            f.id AS field_id, f.name AS field_name, f.kind, f.config, f.position
       FROM workspaces w
       LEFT JOIN record_types t ON t.workspace_id = w.id AND t.deleted_at IS NULL
       LEFT JOIN record_fields f ON f.type_id = t.id AND f.deleted_at IS NULL
      WHERE w.id = $1
      ORDER BY t.created_at, t.name, t.id, f.position`,
    [workspaceId],
  );
  if (!rows.length) throw new Error(`workspace ${workspaceId} not found`);
  const types = new Map<string, TypeModel>();
  for (const row of rows) {
    if (!row.type_id) continue;
    let type = types.get(row.type_id);
    if (!type) {
      type = { id: row.type_id, name: row.type_name!, builtin: row.builtin, fields: [] };
      types.set(row.type_id, type);
    }
    if (row.field_id) {
      type.fields.push({
        id: row.field_id,
        typeId: row.type_id,
        name: row.field_name!,
        kind: row.kind!,
        config: row.config ?? {},
        position: row.position!,
      });
    }
  }
  return { schemaRevision: rows[0]!.schema_revision, types: [...types.values()] };
}

interface ModelRow {
  schema_revision: number;
  type_id: string | null;
  type_name: string | null;
  builtin: RecordType['builtin'];
  field_id: string | null;
  field_name: string | null;
  kind: FieldDef['kind'] | null;
  config: FieldDef['config'] | null;
  position: number | null;
}

/** The model as one reader may see it: unreadable types are absent; restricted fields are flagged. */
export function visibleModel(model: RecordModel, access: RecordAccess) {
  return {
    schemaRevision: model.schemaRevision,
    types: model.types
      .filter((type) => access.canReadType(type.id))
      .map((type) => ({
        ...type,
        fields: type.fields.map((field) => ({ ...field, restricted: access.isFieldRestricted(field.id) })),
      })),
  };
}

/**
 * A type the reader can read, by id or by name (case-insensitive) or built-in key. Unknown and
 * unreadable types answer the same not_found, so access does not reveal what exists.
 */
export function findReadableType(model: RecordModel, access: RecordAccess, reference: string): TypeModel {
  const wanted = reference.trim().toLowerCase();
  const id = canonicalId(reference);
  const type = model.types.find(
    (candidate) =>
      candidate.id === id || candidate.name.toLowerCase() === wanted || candidate.builtin === wanted,
  );
  if (!type || !access.canReadType(type.id))
    throw notFoundError('Record type not found.', 'recordTypeNotFound');
  return type;
}

/** The display name of a record: its first text field's value. */
export function displayFieldOf(type: TypeModel): FieldDef | undefined {
  return type.fields.find((field) => field.kind === 'text');
}
