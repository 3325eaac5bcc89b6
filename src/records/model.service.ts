import type { EntityManager } from 'typeorm';
import { IsNull } from 'typeorm';
import { notFoundError } from '../errors/app-error';
import { Workspace } from '../identity/workspace.entity';
import type { FieldDef } from './field-kinds';
import type { RecordAccess } from './record-access';
import { RecordField } from './record-field.entity';
import { RecordType } from './record-type.entity';

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

export const toFieldDef = (field: RecordField): FieldDef => ({
  id: field.id,
  typeId: field.typeId,
  name: field.name,
  kind: field.kind,
  config: field.config,
  position: field.position,
});

export async function loadModel(manager: EntityManager, workspaceId: string): Promise<RecordModel> {
  // One after another: `manager` may be a transaction's, which has a single connection.
  const workspace = await manager.findOneByOrFail(Workspace, { id: workspaceId });
  const types = await manager.find(RecordType, {
    where: { workspaceId, deletedAt: IsNull() },
    order: { createdAt: 'ASC', name: 'ASC' },
  });
  const fields = await manager.find(RecordField, {
    where: { workspaceId, deletedAt: IsNull() },
    order: { position: 'ASC' },
  });
  return {
    schemaRevision: workspace.schemaRevision,
    types: types.map((type) => ({
      id: type.id,
      name: type.name,
      builtin: type.builtin,
      fields: fields.filter((field) => field.typeId === type.id).map(toFieldDef),
    })),
  };
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
  const type = model.types.find(
    (candidate) =>
      candidate.id === reference || candidate.name.toLowerCase() === wanted || candidate.builtin === wanted,
  );
  if (!type || !access.canReadType(type.id))
    throw notFoundError('Record type not found.', 'recordTypeNotFound');
  return type;
}

/** The display name of a record: its first text field's value. */
export function displayFieldOf(type: TypeModel): FieldDef | undefined {
  return type.fields.find((field) => field.kind === 'text');
}
