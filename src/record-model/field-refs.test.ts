import type { FieldDef } from './field-kinds';
import { AppError } from '../shared/app-error';
import { resolveFilterFields, resolveWriteFields, type FieldRefOptions } from './field-refs';

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

const MCP: FieldRefOptions = { modelSource: 'get_record_model' };

/** One section of a write, resolved as a record write resolves it. */
const resolveFieldKeys = (
  type: typeof deal,
  section: 'values' | 'links',
  input: Record<string, any> | undefined,
  options: FieldRefOptions = MCP,
) => resolveWriteFields(type, { [section]: input }, options)[section];

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.issues;
  }
  throw new Error('not refused');
};

describe('resolveWriteFields', () => {
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

describe('resolveWriteFields: both sections, ids against names, restricted and unseen fields', () => {
  it('resolves values and links together and reports the bad keys of both in one refusal', () => {
    expect(resolveWriteFields(deal, { values: { name: 'Ada' }, links: { Company: ['r1'] } }, MCP)).toEqual({
      values: { 'f-name': 'Ada' },
      links: { 'f-company': ['r1'] },
    });
    const issues = refusal(() =>
      resolveWriteFields(deal, { values: { Title: 1 }, links: { Owner: [] } }, MCP),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      ['values', 'Title'],
      ['links', 'Owner'],
    ]);
  });

  it('names where ids are read in the refusal', () => {
    const [issue] = refusal(() =>
      resolveWriteFields(deal, { values: { Title: 1 } }, { modelSource: 'POST /api/v1/model/read' }),
    );
    expect(issue!.message).toBe(
      'No field "Title" in Deal. Its fields: Name, Amount, Note, note ; or use a field id from POST /api/v1/model/read.',
    );
  });

  it('takes an id as that field even when another field is named like it; the other answers to its own id', () => {
    const shadowed = {
      name: 'Deal',
      fields: [field('f-a', 'Alpha'), field('f-b', 'F-A'), field('f-c', 'f-b')],
    };
    expect(resolveFieldKeys(shadowed, 'values', { 'f-a': 1, 'f-b': 2 })).toEqual({ 'f-a': 1, 'f-b': 2 });
    // "F-A" is not an id (ids match exactly), so it is the name of f-b.
    expect(resolveFieldKeys(shadowed, 'values', { 'F-A': 1 })).toEqual({ 'f-b': 1 });
    // The id f-b and the name "F-A" are one field: sent twice.
    expect(refusal(() => resolveFieldKeys(shadowed, 'values', { 'f-b': 1, 'F-A': 2 }))[0]).toMatchObject({
      path: ['values', 'F-A'],
      customCode: 'recordFieldDuplicate',
    });
  });

  it('resolves a restricted field like any other (the write rules refuse it) and leaves it out of the names listed', () => {
    const options = { ...MCP, isRestricted: (id: string) => id === 'f-amount' };
    expect(resolveFieldKeys(deal, 'values', { Amount: 1 }, options)).toEqual({ 'f-amount': 1 });
    expect(refusal(() => resolveFieldKeys(deal, 'values', { Title: 1 }, options))[0]!.message).toBe(
      'No field "Title" in Deal. Its fields: Name, Note, note ; or use a field id from get_record_model.',
    );
  });

  it('answers a field of another type (one the caller cannot read included) exactly as a name never used', () => {
    const secret = { name: 'Payroll', fields: [field('f-salary', 'Salary', 'number')] };
    expect(resolveFieldKeys(secret, 'values', { Salary: 1 })).toEqual({ 'f-salary': 1 });
    const asSalary = refusal(() => resolveFieldKeys(deal, 'values', { Salary: 1 }));
    const asNothing = refusal(() => resolveFieldKeys(deal, 'values', { Zzzzzz: 1 }));
    expect(JSON.stringify(asSalary).replaceAll('Salary', 'Zzzzzz')).toBe(JSON.stringify(asNothing));
    const byId = refusal(() => resolveFieldKeys(deal, 'values', { 'f-salary': 1 }));
    expect(byId[0]).toMatchObject({ path: ['values', 'f-salary'], customCode: 'recordFieldUnknown' });
  });
});

describe('resolveFilterFields', () => {
  it('rewrites filter field names to ids, link fields included, and refuses unknown ones at their path', () => {
    expect(
      resolveFilterFields(
        deal,
        [
          { fieldId: 'amount', op: 'gt', value: 1 },
          { fieldId: 'Company', op: 'isEmpty' },
        ],
        MCP,
      ),
    ).toEqual([
      { fieldId: 'f-amount', op: 'gt', value: 1 },
      { fieldId: 'f-company', op: 'isEmpty' },
    ]);
    expect(refusal(() => resolveFilterFields(deal, [{ fieldId: 'Stage', op: 'eq' }], MCP))[0]).toMatchObject({
      path: ['filters', 0, 'fieldId'],
      customCode: 'recordFieldUnknown',
    });
  });
});
