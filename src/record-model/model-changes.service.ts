import type { DataSource, EntityManager } from 'typeorm';
import { IsNull } from 'typeorm';
import { authorizationError, conflictError, notFoundError, ValidationError } from '../shared/app-error';
import { writeTransaction } from '../db/idempotent-write';
import type { Actor } from '../identity/actor';
import type { FieldConfig, FieldKind } from './field-kinds';
import { validateFormula } from './formulas/formula-fields';
import type { FieldDef } from './field-kinds';
import { toFieldDef } from './model.service';
import { RecordField } from './record-field.entity';
import { RecordType } from './record-type.entity';

export interface FieldInput {
  name: string;
  kind: FieldKind;
  config?: FieldConfig;
}

/**
 * Data-model changes (types and fields). Each raises the workspace's schema revision and is
 * written to the model history. A change that recalculates stored values (a new or changed
 * formula) updates the records in place and emits no per-record event (docs/events.md#record-events).
 */
/**
 * Recomputes the stored formula values of every live record of a type after its formulas changed;
 * returns how many records changed. Records own their table, so the composition root provides it.
 */
export type RecalculateFormulas = (
  manager: EntityManager,
  typeId: string,
  fields: FieldDef[],
) => Promise<number>;

export class ModelChangesService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly recalculateFormulas: RecalculateFormulas,
  ) {}

  async createType(actor: Actor, name: string): Promise<RecordType> {
    assertAdmin(actor);
    return this.change(actor, 'type.created', async (manager) => {
      await assertTypeNameFree(manager, actor.workspace.id, name);
      const type = await manager.save(
        manager.create(RecordType, { workspaceId: actor.workspace.id, name: name.trim(), builtin: null }),
      );
      await manager.save(
        manager.create(RecordField, {
          workspaceId: actor.workspace.id,
          typeId: type.id,
          name: 'Name',
          kind: 'text',
          config: {},
          position: 0,
        }),
      );
      return { result: type, details: { typeId: type.id, name: type.name } };
    });
  }

  async renameType(actor: Actor, typeId: string, name: string): Promise<RecordType> {
    assertAdmin(actor);
    return this.change(actor, 'type.renamed', async (manager) => {
      const type = await findType(manager, actor.workspace.id, typeId);
      if (type.name.toLowerCase() !== name.trim().toLowerCase())
        await assertTypeNameFree(manager, actor.workspace.id, name);
      const from = type.name;
      type.name = name.trim();
      await manager.save(type);
      return { result: type, details: { typeId, from, to: type.name } };
    });
  }

  async deleteType(actor: Actor, typeId: string): Promise<void> {
    assertAdmin(actor);
    await this.change(actor, 'type.deleted', async (manager) => {
      const type = await findType(manager, actor.workspace.id, typeId);
      if (type.builtin) throw conflictError('Built-in record types cannot be deleted.', 'recordTypeBuiltin');
      type.deletedAt = new Date();
      await manager.save(type);
      return { result: undefined, details: { typeId, name: type.name } };
    });
  }

  async createField(actor: Actor, typeId: string, input: FieldInput): Promise<RecordField> {
    assertAdmin(actor);
    return this.change(actor, 'field.created', async (manager) => {
      const type = await findType(manager, actor.workspace.id, typeId);
      const fields = await liveFields(manager, type.id);
      if (fields.some((field) => field.name.toLowerCase() === input.name.trim().toLowerCase())) {
        throw conflictError('A field with this name already exists.', 'recordFieldNameTaken', ['name']);
      }
      const config = await checkConfig(
        manager,
        actor.workspace.id,
        input.kind,
        input.config ?? {},
        fields.map(toFieldDef),
      );
      const field = await manager.save(
        manager.create(RecordField, {
          workspaceId: actor.workspace.id,
          typeId: type.id,
          name: input.name.trim(),
          kind: input.kind,
          config,
          position: fields.length ? Math.max(...fields.map((f) => f.position)) + 1 : 0,
        }),
      );
      const recalculated =
        input.kind === 'formula'
          ? await this.recalculateFormulas(manager, type.id, liveFieldDefs([...fields, field]))
          : 0;
      return {
        result: field,
        details: { typeId, fieldId: field.id, name: field.name, kind: field.kind },
        recalculated,
      };
    });
  }

  /** Renames a field and/or changes its configuration (select options, formula expression). */
  async updateField(
    actor: Actor,
    fieldId: string,
    input: { name?: string; config?: FieldConfig },
  ): Promise<RecordField> {
    assertAdmin(actor);
    return this.change(actor, 'field.updated', async (manager) => {
      const field = await findField(manager, actor.workspace.id, fieldId);
      const fields = await liveFields(manager, field.typeId);
      if (input.name !== undefined && input.name.trim().toLowerCase() !== field.name.toLowerCase()) {
        if (fields.some((other) => other.name.toLowerCase() === input.name!.trim().toLowerCase())) {
          throw conflictError('A field with this name already exists.', 'recordFieldNameTaken', ['name']);
        }
      }
      const before = { name: field.name, config: field.config };
      if (input.name !== undefined) field.name = input.name.trim();
      if (input.config !== undefined) {
        const others = fields.filter((other) => other.id !== field.id).map(toFieldDef);
        field.config = await checkConfig(
          manager,
          actor.workspace.id,
          field.kind,
          input.config,
          others,
          field.id,
        );
      }
      await manager.save(field);
      const formulaChanged = field.kind === 'formula' && before.config.expression !== field.config.expression;
      const recalculated = formulaChanged
        ? await this.recalculateFormulas(
            manager,
            field.typeId,
            liveFieldDefs(fields.map((f) => (f.id === field.id ? field : f))),
          )
        : 0;
      return {
        result: field,
        details: { fieldId, before, after: { name: field.name, config: field.config } },
        recalculated,
      };
    });
  }

  async deleteField(actor: Actor, fieldId: string): Promise<void> {
    assertAdmin(actor);
    await this.change(actor, 'field.deleted', async (manager) => {
      const field = await findField(manager, actor.workspace.id, fieldId);
      const dependants = (await liveFields(manager, field.typeId)).filter(
        (other) => other.kind === 'formula' && other.config.expression?.includes(`{${field.id}}`),
      );
      if (dependants.length) {
        throw conflictError(`Formula field ${dependants[0]!.name} uses this field.`, 'recordFieldInUse');
      }
      field.deletedAt = new Date();
      await manager.save(field);
      return { result: undefined, details: { fieldId, name: field.name } };
    });
  }

  /** Runs one model change: raises the schema revision and records it in the history. */
  private async change<T>(
    actor: Actor,
    change: string,
    work: (
      manager: EntityManager,
    ) => Promise<{ result: T; details: Record<string, unknown>; recalculated?: number }>,
  ): Promise<T> {
    return writeTransaction(this.dataSource, async (manager) => {
      // TypeORM answers an UPDATE … RETURNING with [rows, affected].
      const [[{ schema_revision: revision }]] = (await manager.query(
        `UPDATE workspaces SET schema_revision = schema_revision + 1 WHERE id = $1 RETURNING schema_revision`,
        [actor.workspace.id],
      )) as [[{ schema_revision: number }], number];
      const { result, details, recalculated = 0 } = await work(manager);
      await manager.query(
        `INSERT INTO model_history (workspace_id, change, schema_revision, actor_id, details, records_recalculated)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [actor.workspace.id, change, revision, actor.user.id, JSON.stringify(details), recalculated],
      );
      return result;
    });
  }
}

function assertAdmin(actor: Actor): void {
  if (!actor.permissions.manageWorkspace) {
    throw authorizationError('Only an Admin can change the data model.', 'insufficientPermissions');
  }
}

async function findType(manager: EntityManager, workspaceId: string, typeId: string): Promise<RecordType> {
  const type = await manager.findOneBy(RecordType, { workspaceId, id: typeId, deletedAt: IsNull() });
  if (!type) throw notFoundError('Record type not found.', 'recordTypeNotFound');
  return type;
}

async function findField(manager: EntityManager, workspaceId: string, fieldId: string): Promise<RecordField> {
  const field = await manager.findOneBy(RecordField, { workspaceId, id: fieldId, deletedAt: IsNull() });
  if (!field) throw notFoundError('Field not found.', 'recordFieldNotFound');
  return field;
}

const liveFields = (manager: EntityManager, typeId: string) =>
  manager.find(RecordField, { where: { typeId, deletedAt: IsNull() }, order: { position: 'ASC' } });

async function assertTypeNameFree(manager: EntityManager, workspaceId: string, name: string): Promise<void> {
  const taken = await manager
    .createQueryBuilder(RecordType, 't')
    .where('t.workspace_id = :workspaceId AND t.deleted_at IS NULL AND lower(t.name) = lower(:name)', {
      workspaceId,
      name: name.trim(),
    })
    .getExists();
  if (taken)
    throw conflictError('A record type with this name already exists.', 'recordTypeNameTaken', ['name']);
}

/** The configuration a field kind needs, checked. */
async function checkConfig(
  manager: EntityManager,
  workspaceId: string,
  kind: FieldKind,
  config: FieldConfig,
  otherFields: ReturnType<typeof toFieldDef>[],
  selfId?: string,
): Promise<FieldConfig> {
  switch (kind) {
    case 'select': {
      const options = [...new Set((config.options ?? []).map((option) => option.trim()).filter(Boolean))];
      if (!options.length)
        throw ValidationError.of('A select field needs at least one option.', 'recordFieldOptionsRequired', [
          'config',
          'options',
        ]);
      return { options };
    }
    case 'formula':
      validateFormula(config.expression ?? '', otherFields, selfId);
      return { expression: config.expression };
    case 'link':
      if (!config.targetTypeId)
        throw ValidationError.of('A link field needs targetTypeId.', 'recordFieldTargetRequired', [
          'config',
          'targetTypeId',
        ]);
      await findType(manager, workspaceId, config.targetTypeId);
      return { targetTypeId: config.targetTypeId };
    default:
      return {};
  }
}

/** The field definitions formulas are computed from: the live fields of the type. */
const liveFieldDefs = (fields: RecordField[]): FieldDef[] =>
  fields.filter((field) => !field.deletedAt).map(toFieldDef);
