import type { FieldDef } from './field-kinds';
import { effectiveRestrictedFieldIds, recordAccessOf } from './record-access';

const number = (id: string): FieldDef => ({
  id,
  typeId: 't',
  name: id,
  kind: 'number',
  config: {},
  position: 0,
});
const formula = (id: string, expression: string): FieldDef => ({
  id,
  typeId: 't',
  name: id,
  kind: 'formula',
  config: { expression },
  position: 0,
});

const fields = [
  number('amount'),
  number('probability'),
  number('fee'),
  formula('weighted', '{amount} * {probability} / 100'),
  formula('doubled', '{weighted} * 2'),
  formula('rounded', 'round({doubled}, 1) + max({fee}, 1)'),
  formula('feeOnly', '{fee} + 1'),
  formula('constant', '42'),
  formula('broken', '{amount} *'),
];

describe('effectiveRestrictedFieldIds', () => {
  it('restricts a formula that uses a restricted field, and formulas of that formula, transitively', () => {
    expect(effectiveRestrictedFieldIds(['amount'], fields)).toEqual(
      new Set(['amount', 'weighted', 'doubled', 'rounded']),
    );
  });

  it('restricts a formula through any one of its inputs, in function arguments too', () => {
    expect(effectiveRestrictedFieldIds(['fee'], fields)).toEqual(new Set(['fee', 'rounded', 'feeOnly']));
  });

  it('keeps formulas that use no restricted field readable, whatever the order of fields', () => {
    const restricted = effectiveRestrictedFieldIds(['probability'], [...fields].reverse());
    expect(restricted).toEqual(new Set(['probability', 'weighted', 'doubled', 'rounded']));
    expect(restricted.has('constant')).toBe(false);
    expect(restricted.has('feeOnly')).toBe(false);
  });

  it('restricts the formulas of a restricted formula field', () => {
    expect(effectiveRestrictedFieldIds(['weighted'], fields)).toEqual(
      new Set(['weighted', 'doubled', 'rounded']),
    );
  });

  it('ends on a cycle stored before cycles were refused', () => {
    const cyclic = [number('a'), formula('x', '{y} + {a}'), formula('y', '{x}')];
    expect(effectiveRestrictedFieldIds(['a'], cyclic)).toEqual(new Set(['a', 'x', 'y']));
  });

  it('restricts nothing more when nothing is restricted; an unparsable formula uses nothing', () => {
    expect(effectiveRestrictedFieldIds([], fields)).toEqual(new Set());
    expect(effectiveRestrictedFieldIds(['amount'], fields).has('broken')).toBe(false);
  });
});

describe('recordAccessOf', () => {
  const role = {
    isAdmin: false,
    defaultRecordAccess: 'all' as const,
    recordAccess: { hidden: 'none' as const },
    restrictedFieldIds: ['amount'],
  };

  it('answers with the closed restricted fields and the readable types', () => {
    const access = recordAccessOf(role, fields);
    expect(['amount', 'weighted', 'doubled', 'rounded'].every((id) => access.isFieldRestricted(id))).toBe(
      true,
    );
    expect(access.isFieldRestricted('probability')).toBe(false);
    expect(access.canReadType('t')).toBe(true);
    expect(access.canReadType('hidden')).toBe(false);
  });

  it('reads a model as its fields', () => {
    const model = { schemaRevision: 1, types: [{ id: 't', name: 'T', builtin: null, fields }] };
    expect(recordAccessOf(role, model).isFieldRestricted('doubled')).toBe(true);
  });

  it('lets an Admin read everything', () => {
    const access = recordAccessOf({ ...role, isAdmin: true }, fields);
    expect(access.isFieldRestricted('amount')).toBe(false);
    expect(access.canReadType('hidden')).toBe(true);
  });
});
