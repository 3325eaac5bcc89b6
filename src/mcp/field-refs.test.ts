import type { FieldDef } from '../record-model/field-kinds';
import { AppError } from '../shared/app-error';
import { resolveFieldKeys, resolveFilterFields } from './field-refs';

const field = (id: string, name: string, kind: FieldDef['kind'] = 'text'): FieldDef => ({
  id,
  typeId: 't',
  name,
  kind,
  config: {},
  position: 0,
});
const deal = {
  name: 'Deal',
  fields: [
    field('f-name', 'Name'),
    field('f-amount', 'Amount', 'number'),
    field('f-company', 'Company', 'link'),
    field('f-note-1', 'Note'),
    field('f-note-2', 'note '),
  ],
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.issues;
  }
  throw new Error('not refused');
};

describe('resolveFieldKeys', () => {
  it('takes ids as they are and names case-insensitively', () => {
    expect(resolveFieldKeys(deal, 'values', { 'f-name': 'Ada', AMOUNT: 5 })).toEqual({
      'f-name': 'Ada',
      'f-amount': 5,
    });
    expect(resolveFieldKeys(deal, 'links', { ' company ': ['r1'] })).toEqual({ 'f-company': ['r1'] });
    expect(resolveFieldKeys(deal, 'values', undefined)).toBeUndefined();
  });

  it('refuses an unknown name naming the fields of the section and get_record_model', () => {
    const [issue] = refusal(() => resolveFieldKeys(deal, 'values', { Title: 'x' }));
    expect(issue).toMatchObject({ path: ['values', 'Title'], customCode: 'recordFieldUnknown' });
    expect(issue!.message).toBe(
      'No field "Title" in Deal. Its fields: Name, Amount, Note, note ; or use a field id from get_record_model.',
    );
    const [link] = refusal(() => resolveFieldKeys(deal, 'links', { Owner: [] }));
    expect(link!.message).toContain('Its link fields: Company;');
  });

  it('refuses an ambiguous name with the ids to choose from', () => {
    const [issue] = refusal(() => resolveFieldKeys(deal, 'values', { NOTE: 'x' }));
    expect(issue).toMatchObject({ path: ['values', 'NOTE'], customCode: 'recordFieldAmbiguous' });
    expect(issue!.message).toContain('f-note-1, f-note-2');
  });

  it('sends a field to its section and refuses the same field twice', () => {
    expect(refusal(() => resolveFieldKeys(deal, 'values', { Company: 'x' }))[0]!.message).toBe(
      'Company is a link field: set it in links (record ids).',
    );
    expect(refusal(() => resolveFieldKeys(deal, 'links', { Name: [] }))[0]!.message).toBe(
      'Name is not a link field: set it in values.',
    );
    expect(refusal(() => resolveFieldKeys(deal, 'values', { Name: 'a', 'f-name': 'b' }))[0]).toMatchObject({
      path: ['values', 'f-name'],
      customCode: 'recordFieldDuplicate',
    });
  });

  it('reports every bad key at once', () => {
    expect(refusal(() => resolveFieldKeys(deal, 'values', { A: 1, B: 2, Name: 'ok' }))).toHaveLength(2);
  });
});

describe('resolveFilterFields', () => {
  it('rewrites filter field names to ids, link fields included, and refuses unknown ones at their path', () => {
    expect(
      resolveFilterFields(deal, [
        { fieldId: 'amount', op: 'gt', value: 1 },
        { fieldId: 'Company', op: 'isEmpty' },
      ]),
    ).toEqual([
      { fieldId: 'f-amount', op: 'gt', value: 1 },
      { fieldId: 'f-company', op: 'isEmpty' },
    ]);
    expect(refusal(() => resolveFilterFields(deal, [{ fieldId: 'Stage', op: 'eq' }]))[0]).toMatchObject({
      path: ['filters', 0, 'fieldId'],
      customCode: 'recordFieldUnknown',
    });
  });
});
