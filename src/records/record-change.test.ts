import type { FieldDef } from '../record-model/field-kinds';
import { diffSnapshots, EMPTY_SNAPSHOT, isEmptyChange, type RecordSnapshot } from './record-change';

const fields: FieldDef[] = [
  { id: 'name', typeId: 'contact', name: 'Name', kind: 'text', config: {}, position: 0 },
  { id: 'score', typeId: 'contact', name: 'Score', kind: 'number', config: {}, position: 1 },
  {
    id: 'org',
    typeId: 'contact',
    name: 'Organization',
    kind: 'link',
    config: { targetTypeId: 'organization' },
    position: 2,
  },
];
const context = {
  fields,
  related: (recordId: string) => ({ ref: { typeId: 'organization', recordId }, display: `Org ${recordId}` }),
  userName: (userId: string) => `User ${userId}`,
};
const snapshot = (overrides: Partial<RecordSnapshot>): RecordSnapshot => ({
  ...EMPTY_SNAPSHOT,
  ...overrides,
});

describe('diffSnapshots', () => {
  it('reports a created record as after-values against missing before-values', () => {
    const sut = diffSnapshots(
      EMPTY_SNAPSHOT,
      snapshot({ values: { name: 'Ada', score: 0 }, links: { org: ['o1'] } }),
      context,
    );
    expect(sut.fields).toEqual([
      {
        fieldId: 'name',
        display: { label: 'Name', kind: 'text', position: 0 },
        before: { state: 'missing' },
        after: { state: 'value', kind: 'text', value: 'Ada' },
      },
      {
        fieldId: 'score',
        display: { label: 'Score', kind: 'number', position: 1 },
        before: { state: 'missing' },
        after: { state: 'value', kind: 'number', value: 0 },
      },
    ]);
    expect(sut.links).toEqual([
      {
        fieldId: 'org',
        display: { label: 'Organization' },
        change: 'added',
        record: { ref: { typeId: 'organization', recordId: 'o1' }, display: 'Org o1' },
      },
    ]);
  });

  it('reports only what changed, with before and after', () => {
    const before = snapshot({
      values: { name: 'Ada', score: 1 },
      links: { org: ['o1'] },
      assignments: ['u1'],
    });
    const after = snapshot({
      values: { name: 'Ada', score: 2 },
      links: { org: ['o2'] },
      assignments: ['u2'],
    });
    const sut = diffSnapshots(before, after, context);
    expect(sut.fields.map((f) => [f.fieldId, f.before, f.after])).toEqual([
      ['score', { state: 'value', kind: 'number', value: 1 }, { state: 'value', kind: 'number', value: 2 }],
    ]);
    expect(sut.links.map((l) => [l.change, l.record.ref.recordId])).toEqual([
      ['added', 'o2'],
      ['removed', 'o1'],
    ]);
    expect(sut.assignments).toEqual([
      { change: 'added', user: { id: 'u2', name: 'User u2' } },
      { change: 'removed', user: { id: 'u1', name: 'User u1' } },
    ]);
  });

  it('reports a cleared value as missing after, never as zero', () => {
    const sut = diffSnapshots(snapshot({ values: { score: 5 } }), snapshot({ values: {} }), context);
    expect(sut.fields[0]!.after).toEqual({ state: 'missing' });
  });

  it('finds nothing in a write that changes nothing', () => {
    const same = snapshot({ values: { name: 'Ada' }, identities: [{ kind: 'email', value: 'a@x.io' }] });
    expect(
      isEmptyChange(
        diffSnapshots(same, { ...same, identities: [{ kind: 'email', value: 'a@x.io' }] }, context),
      ),
    ).toBe(true);
  });

  it('reports identity changes', () => {
    const sut = diffSnapshots(
      snapshot({ identities: [{ kind: 'email', value: 'old@x.io' }] }),
      snapshot({ identities: [{ kind: 'email', value: 'new@x.io' }] }),
      context,
    );
    expect(sut.identities).toEqual([
      { change: 'added', kind: 'email', value: 'new@x.io' },
      { change: 'removed', kind: 'email', value: 'old@x.io' },
    ]);
  });
});
