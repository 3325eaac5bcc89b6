import type { EntityManager } from 'typeorm';
import type { Role } from '../identity/role.entity';
import type { FieldDef } from './field-kinds';
import { formulaInputIds } from './formulas/formula-fields';
import type { RecordModel } from './record-model';

/**
 * What one person can read of records (docs/app-api.md#record-access-on-roles: per type read
 * none/all, restricted fields).
 */
export interface RecordAccess {
  canReadType(typeId: string): boolean;
  /** True for the role's restricted fields and for every formula computed from one of them. */
  isFieldRestricted(fieldId: string): boolean;
  /**
   * Whether a related record of this type may show its display name: the type is readable and
   * its display field (the first text field) is not restricted, since the name is that field's value.
   */
  canReadDisplayOf(typeId: string): boolean;
}

type RoleAccess = Pick<Role, 'isAdmin' | 'defaultRecordAccess' | 'recordAccess' | 'restrictedFieldIds'>;

/**
 * A field as access needs it: formulas name their inputs in `config.expression`; a type's display
 * field is its text field with the lowest position.
 */
export type FormulaSource = Pick<FieldDef, 'id' | 'kind' | 'config'> &
  Partial<Pick<FieldDef, 'typeId' | 'position'>>;

/** Each type's display field id (its first text field), from a list of fields of any types. */
export function displayFieldIds(fields: readonly FormulaSource[]): Map<string, string> {
  const first = new Map<string, FormulaSource>();
  for (const field of fields) {
    if (field.kind !== 'text' || field.typeId === undefined) continue;
    const current = first.get(field.typeId);
    if (!current || (field.position ?? 0) < (current.position ?? 0)) first.set(field.typeId, field);
  }
  return new Map([...first].map(([typeId, field]) => [typeId, field.id]));
}

/**
 * The fields a reader cannot read, closed over formulas: a role's restricted fields, and every
 * formula field that uses one of them, directly or through other formulas (a calculated value
 * would otherwise reveal its restricted inputs). Formulas can use nothing but `{fieldId}`
 * references to number and formula fields, so the references are the whole dependency graph.
 */
export function effectiveRestrictedFieldIds(
  restrictedIds: Iterable<string>,
  fields: readonly FormulaSource[],
): Set<string> {
  const restricted = new Set(restrictedIds);
  if (restricted.size === 0) return restricted;
  const formulas = fields
    .filter((field) => field.kind === 'formula')
    .map((field) => ({ id: field.id, inputs: formulaInputIds(field.config.expression) }));
  // A fixed point: each pass restricts the formulas that use a field restricted so far.
  for (let grew = true; grew;) {
    grew = false;
    for (const formula of formulas) {
      if (!restricted.has(formula.id) && formula.inputs.some((id) => restricted.has(id))) {
        restricted.add(formula.id);
        grew = true;
      }
    }
  }
  return restricted;
}

const fieldsOf = (model: RecordModel | readonly FormulaSource[]): readonly FormulaSource[] =>
  'types' in model ? model.types.flatMap((type) => type.fields) : model;

/** Access that hides nothing: an Admin's, and the measure of what an event holds in full. */
export const UNRESTRICTED_ACCESS: RecordAccess = {
  canReadType: () => true,
  isFieldRestricted: () => false,
  canReadDisplayOf: () => true,
};

/**
 * A role's access with the model its formulas come from (computed once per request): Admin reads
 * everything; others read the types their role allows, minus the closed restricted fields.
 */
export function recordAccessOf(
  role: RoleAccess,
  model: RecordModel | readonly FormulaSource[],
): RecordAccess {
  if (role.isAdmin) return UNRESTRICTED_ACCESS;
  const fields = fieldsOf(model);
  const restricted = effectiveRestrictedFieldIds(role.restrictedFieldIds, fields);
  const displayFields = displayFieldIds(fields);
  const canReadType = (typeId: string) => (role.recordAccess[typeId] ?? role.defaultRecordAccess) === 'all';
  return {
    canReadType,
    isFieldRestricted: (fieldId) => restricted.has(fieldId),
    canReadDisplayOf: (typeId) => {
      const displayField = displayFields.get(typeId);
      return canReadType(typeId) && !(displayField !== undefined && restricted.has(displayField));
    },
  };
}

/**
 * A role's access for reading stored events (deliveries, Event Details): the formulas come from
 * every field of the workspace, deleted ones included, since an older event can carry a value
 * of a formula field deleted since; the display fields are the live text fields.
 */
export async function loadRecordAccess(
  manager: EntityManager,
  workspaceId: string,
  role: RoleAccess,
): Promise<RecordAccess> {
  if (role.isAdmin || role.restrictedFieldIds.length === 0) return recordAccessOf(role, []);
  const fields: FormulaSource[] = await manager.query(
    `SELECT id, kind, config, type_id AS "typeId", position FROM record_fields
      WHERE workspace_id = $1 AND (kind = 'formula' OR (kind = 'text' AND deleted_at IS NULL))`,
    [workspaceId],
  );
  return recordAccessOf(role, fields);
}
