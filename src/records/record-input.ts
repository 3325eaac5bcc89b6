import type { EntityManager } from 'typeorm';
import { In } from 'typeorm';
import { AppError, ValidationError } from '../shared/app-error';
import { Member } from '../identity/member.entity';
import { CrmRecord } from './crm-record.entity';
import { computeFormulas } from '../record-model/formulas/formula-fields';
import type { TypeModel } from '../record-model/model.service';
import type { RecordAccess } from '../record-model/record-access';
import type { RecordSnapshot } from './record-change';
import type { RecordWriteBody } from './records.schemas';
import { EMAIL, toStoredValue } from '../record-model/values';
import { resolveWriteFields } from '../record-model/field-refs';

function restrictedField(fieldId: string, section: 'values' | 'links'): AppError {
  return new AppError('authorization', [
    {
      code: 'authorization',
      path: [section, fieldId],
      message: 'Your role cannot read this field, so it cannot change it.',
      customCode: 'recordFieldRestricted',
    },
  ]);
}

/**
 * The snapshot a write leads to: `previous` with the input applied, every rule checked (fields of
 * the type, by id or name, value kinds, link targets, assignees, identities), and the formulas
 * recomputed. Field names become ids first (`resolveWriteFields`), so every later rule, and its
 * refusal's `path`, sees the field id.
 */
export async function applyRecordInput(
  manager: EntityManager,
  context: { workspaceId: string; type: TypeModel; access: RecordAccess; modelSource: string },
  previous: RecordSnapshot,
  sent: RecordWriteBody,
): Promise<RecordSnapshot> {
  const { type, access, workspaceId, modelSource } = context;
  const input = resolveWriteFields(type, sent, {
    modelSource,
    isRestricted: (fieldId) => access.isFieldRestricted(fieldId),
  });
  const fieldById = new Map(type.fields.map((field) => [field.id, field]));
  const unknownField = (section: string, fieldId: string) =>
    ValidationError.of(`No field ${fieldId} in ${type.name}.`, 'recordFieldUnknown', [section, fieldId]);

  const values = { ...previous.values };
  for (const [fieldId, raw] of Object.entries(input.values ?? {})) {
    const field = fieldById.get(fieldId);
    if (!field || field.kind === 'link') throw unknownField('values', fieldId);
    if (access.isFieldRestricted(fieldId)) throw restrictedField(fieldId, 'values');
    const stored = toStoredValue(field, raw);
    if (stored === null) delete values[fieldId];
    else values[fieldId] = stored;
  }
  for (const [fieldId, computed] of Object.entries(computeFormulas(type.fields, values))) {
    if (computed === undefined) delete values[fieldId];
    else values[fieldId] = computed;
  }

  const links = { ...previous.links };
  for (const [fieldId, targets] of Object.entries(input.links ?? {})) {
    const field = fieldById.get(fieldId);
    if (!field || field.kind !== 'link') throw unknownField('links', fieldId);
    if (access.isFieldRestricted(fieldId)) throw restrictedField(fieldId, 'links');
    const unique = [...new Set(targets)];
    if (unique.length) {
      const found = await manager.countBy(CrmRecord, {
        workspaceId,
        id: In(unique),
        typeId: field.config.targetTypeId,
        status: 'active',
      });
      if (found !== unique.length) {
        throw ValidationError.of(
          `${field.name}: every linked record must be an active record of the linked type.`,
          'recordLinkTargetInvalid',
          ['links', fieldId],
        );
      }
    }
    if (unique.length) links[fieldId] = unique;
    else delete links[fieldId];
  }

  let assignments = previous.assignments;
  if (input.assignments) {
    assignments = [...new Set(input.assignments)].sort();
    const members = assignments.length
      ? await manager.countBy(Member, { workspaceId, userId: In(assignments) })
      : 0;
    if (members !== assignments.length) {
      throw ValidationError.of(
        'Records can be assigned only to members of the workspace.',
        'recordAssigneeInvalid',
        ['assignments'],
      );
    }
  }

  let identities = previous.identities;
  if (input.identities) {
    const seen = new Set<string>();
    identities = [];
    for (const [index, identity] of input.identities.entries()) {
      const value = identity.kind === 'email' ? identity.value.toLowerCase() : identity.value;
      if (identity.kind === 'email' && !EMAIL.test(value)) {
        throw ValidationError.of('An email identity must be an email address.', 'recordIdentityInvalid', [
          'identities',
          index,
          'value',
        ]);
      }
      const key = `${identity.kind}\u0000${value}`;
      if (!seen.has(key)) identities.push({ kind: identity.kind, value });
      seen.add(key);
    }
    identities.sort((a, b) => a.kind.localeCompare(b.kind) || a.value.localeCompare(b.value));
  }

  return { values, links, assignments, identities };
}
