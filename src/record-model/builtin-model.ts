import type { EntityManager } from 'typeorm';
import type { FieldConfig, FieldKind } from './field-kinds';
import { RecordField } from './record-field.entity';
import type { BuiltinType } from './builtin-types';
import { RecordType } from './record-type.entity';

interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Links name their target by built-in key; formulas name their inputs by field name. */
  target?: BuiltinType;
  options?: string[];
  formula?: (idOf: (fieldName: string) => string) => string;
}

/** The built-in types every workspace starts with (issue: contact, organization, deal, service, task). */
const BUILTIN_MODEL: Record<BuiltinType, { name: string; fields: FieldSpec[] }> = {
  contact: {
    name: 'Contacts',
    fields: [
      { name: 'Name', kind: 'text' },
      { name: 'Email', kind: 'email' },
      { name: 'Phone', kind: 'text' },
      { name: 'Notes', kind: 'richText' },
      { name: 'Organization', kind: 'link', target: 'organization' },
    ],
  },
  organization: {
    name: 'Organizations',
    fields: [
      { name: 'Name', kind: 'text' },
      { name: 'Website', kind: 'url' },
      { name: 'Employees', kind: 'number' },
    ],
  },
  deal: {
    name: 'Deals',
    fields: [
      { name: 'Name', kind: 'text' },
      { name: 'Amount', kind: 'number' },
      { name: 'Probability', kind: 'number' },
      { name: 'Stage', kind: 'select', options: ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost'] },
      { name: 'Close date', kind: 'date' },
      { name: 'Organization', kind: 'link', target: 'organization' },
      {
        name: 'Weighted amount',
        kind: 'formula',
        formula: (idOf) => `{${idOf('Amount')}} * {${idOf('Probability')}} / 100`,
      },
    ],
  },
  service: {
    name: 'Services',
    fields: [
      { name: 'Name', kind: 'text' },
      { name: 'Price', kind: 'number' },
      { name: 'Active', kind: 'boolean' },
    ],
  },
  task: {
    name: 'Tasks',
    fields: [
      { name: 'Title', kind: 'text' },
      { name: 'Due date', kind: 'date' },
      { name: 'Done', kind: 'boolean' },
      { name: 'Deal', kind: 'link', target: 'deal' },
    ],
  },
};

/** Creates the built-in types and fields that a workspace lacks. Idempotent. */
export async function seedBuiltinModel(manager: EntityManager, workspaceId: string): Promise<void> {
  const existing = await manager.findBy(RecordType, { workspaceId });
  const typeIds = new Map(existing.filter((t) => t.builtin).map((t) => [t.builtin!, t.id]));
  const created: BuiltinType[] = [];
  for (const [builtin, spec] of Object.entries(BUILTIN_MODEL) as [
    BuiltinType,
    (typeof BUILTIN_MODEL)[BuiltinType],
  ][]) {
    if (typeIds.has(builtin)) continue;
    const type = await manager.save(manager.create(RecordType, { workspaceId, builtin, name: spec.name }));
    typeIds.set(builtin, type.id);
    created.push(builtin);
  }
  for (const builtin of created) {
    const typeId = typeIds.get(builtin)!;
    const ids = new Map<string, string>();
    const specs = BUILTIN_MODEL[builtin].fields;
    // Plain fields first, so formulas can name them by id.
    for (const [position, spec] of specs.entries()) {
      if (spec.formula) continue;
      const config: FieldConfig = {};
      if (spec.options) config.options = spec.options;
      if (spec.target) config.targetTypeId = typeIds.get(spec.target)!;
      const field = await manager.save(
        manager.create(RecordField, {
          workspaceId,
          typeId,
          name: spec.name,
          kind: spec.kind,
          config,
          position,
        }),
      );
      ids.set(spec.name, field.id);
    }
    for (const [position, spec] of specs.entries()) {
      if (!spec.formula) continue;
      const expression = spec.formula((name) => ids.get(name)!);
      await manager.save(
        manager.create(RecordField, {
          workspaceId,
          typeId,
          name: spec.name,
          kind: 'formula',
          config: { expression },
          position,
        }),
      );
    }
  }
}
