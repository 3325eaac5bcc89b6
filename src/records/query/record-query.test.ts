import { ValidationError } from '../../shared/app-error';
import { issuesFromZod } from '../../errors/zod-issues';
import type { FieldDef, FieldKind } from '../../record-model/field-kinds';
import {
  matchesQuery,
  recordQuerySchema,
  richTextPlainText,
  validateQuery,
  type MatchableRecord,
  type RecordFilter,
  type RecordQuery,
} from './record-query';
import { queryToSql } from './record-query.sql';

const TYPE = '0b5e7c1a-1111-4aaa-8bbb-000000000001';
const OTHER_TYPE = '0b5e7c1a-1111-4aaa-8bbb-000000000002';
const ORG_A = '0b5e7c1a-2222-4aaa-8bbb-00000000000a';
const ORG_B = '0b5e7c1a-2222-4aaa-8bbb-00000000000b';

const field = (id: string, kind: FieldKind, config: FieldDef['config'] = {}, typeId = TYPE): FieldDef => ({
  id,
  typeId,
  name: id,
  kind,
  config,
  position: 0,
});

const fields: FieldDef[] = [
  field('name', 'text'),
  field('email', 'email'),
  field('stage', 'select', { options: ['Lead', 'Won', 'Lost'] }),
  field('notes', 'richText'),
  field('amount', 'number'),
  field('score', 'formula', { expression: '{amount} / 10' }),
  field('due', 'date'),
  field('active', 'boolean'),
  field('org', 'link', { targetTypeId: OTHER_TYPE }),
  field('elsewhere', 'text', {}, OTHER_TYPE),
];

const doc = (...paragraphs: string[][]) => ({
  documentJson: {
    type: 'doc',
    content: paragraphs.map((texts) => ({
      type: 'paragraph',
      content: texts.map((text) => ({ type: 'text', text })),
    })),
  },
});

const acme: MatchableRecord = {
  typeId: TYPE,
  values: {
    name: 'Acme Corp',
    email: 'Info@Acme.com',
    stage: 'Won',
    notes: doc(['Big ', 'cust', 'omer'], ['Renewal']),
    amount: 1200,
    score: 120,
    due: '2024-03-01',
    active: true,
  },
  links: { org: [ORG_A] },
};
const blank: MatchableRecord = { typeId: TYPE, values: {}, links: {} };
const broken: MatchableRecord = {
  typeId: TYPE,
  values: { name: '', amount: 0, score: { $error: 'division by zero' }, notes: doc([]), active: false },
  links: { org: [] },
};

const query = (...filters: RecordFilter[]): RecordQuery => ({ typeId: TYPE, filters });
const matches = (record: MatchableRecord, q: RecordQuery) => matchesQuery(record, q, fields);
/** Which of acme, blank and broken a query selects. */
const selected = (q: RecordQuery) =>
  Object.entries({ acme, blank, broken })
    .filter(([, record]) => matches(record, q))
    .map(([name]) => name);

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues.map(({ customCode, path }) => ({ customCode, path }));
  }
  throw new Error('expected a refusal');
}

describe('recordQuerySchema', () => {
  it('accepts a type with an optional search and filters', () => {
    const sut = recordQuerySchema.safeParse({
      typeId: TYPE,
      search: 'acme',
      filters: [
        { fieldId: 'amount', op: 'gt', value: 5 },
        { fieldId: 'org', op: 'isEmpty' },
      ],
    });
    expect(sut.success).toBe(true);
  });

  it('refuses a bad type id, a long search, too many filters, unknown ops and keys with stable codes', () => {
    const sut = recordQuerySchema.safeParse({
      typeId: 'contacts',
      search: 'x'.repeat(201),
      filters: Array.from({ length: 21 }, () => ({ fieldId: 'name', op: 'eq', value: 'x' })),
    });
    expect(issuesFromZod(sut.error!).map((issue) => [issue.path.join('.'), issue.customCode])).toEqual([
      ['typeId', 'queryTypeIdInvalid'],
      ['search', 'querySearchTooLong'],
      ['filters', 'queryTooManyFilters'],
    ]);
    const ops = recordQuerySchema.safeParse({
      typeId: TYPE,
      filters: [{ fieldId: 'name', op: 'like', x: 1 }],
    });
    expect(issuesFromZod(ops.error!).map((issue) => [issue.path.join('.'), issue.customCode])).toEqual([
      ['filters.0.op', 'invalidValue'],
      ['filters.0', 'unknownField'],
    ]);
  });
});

describe('validateQuery', () => {
  it('accepts filters that fit their field kinds', () => {
    const sut = query(
      { fieldId: 'name', op: 'contains', value: 'ac' },
      { fieldId: 'stage', op: 'in', value: ['Won', 'Lost'] },
      { fieldId: 'stage', op: 'contains', value: 'o' },
      { fieldId: 'notes', op: 'isEmpty' },
      { fieldId: 'amount', op: 'gt', value: 1.5 },
      { fieldId: 'score', op: 'lt', value: 0 },
      { fieldId: 'due', op: 'gt', value: '2024-02-29' },
      { fieldId: 'active', op: 'eq', value: false },
      { fieldId: 'org', op: 'in', value: [ORG_A, ORG_B.toUpperCase()] },
      { fieldId: 'org', op: 'neq', value: ORG_A },
    );
    expect(() => validateQuery(sut, fields)).not.toThrow();
  });

  it('refuses a field that is not on the query type', () => {
    expect(refusal(() => validateQuery(query({ fieldId: 'elsewhere', op: 'isEmpty' }), fields))).toEqual([
      { customCode: 'queryUnknownField', path: ['filters', 0, 'fieldId'] },
    ]);
  });

  it.each([
    ['gt', 'name', 'a'],
    ['contains', 'amount', '1'],
    ['contains', 'due', '2024'],
    ['contains', 'org', ORG_A],
    ['eq', 'notes', 'x'],
    ['lt', 'active', true],
    ['contains', 'active', 'true'],
  ])('refuses %s on the %s field', (op, fieldId, value) => {
    const filter = { fieldId, op, value } as RecordFilter;
    expect(refusal(() => validateQuery(query(filter), fields))).toEqual([
      { customCode: 'queryOperatorNotAllowed', path: ['filters', 0, 'op'] },
    ]);
  });

  it.each([
    ['name', 'eq', 5],
    ['name', 'contains', ''],
    ['name', 'isEmpty', 'x'],
    ['name', 'isNotEmpty', null],
    ['name', 'in', 'x'],
    ['name', 'in', Array.from({ length: 101 }, () => 'x')],
    ['stage', 'eq', 'won'],
    ['stage', 'in', ['Won', 'Maybe']],
    ['amount', 'eq', '5'],
    ['amount', 'gt', Number.NaN],
    ['score', 'in', [1, null]],
    ['due', 'eq', '2024-02-30'],
    ['due', 'lt', '2024-3-1'],
    ['active', 'eq', 'true'],
    ['org', 'eq', 'acme'],
    ['org', 'in', [ORG_A, 'x']],
    ['org', 'eq', undefined],
  ])('refuses the %s filter %s %j', (fieldId, op, value) => {
    const filter = { fieldId, op, value } as RecordFilter;
    expect(refusal(() => validateQuery(query(filter), fields))).toEqual([
      { customCode: 'queryValueInvalid', path: ['filters', 0, 'value'] },
    ]);
  });

  it('reports every bad filter at once, under a path prefix', () => {
    const sut = query(
      { fieldId: 'name', op: 'eq', value: 'ok' },
      { fieldId: 'nope', op: 'eq', value: 1 },
      { fieldId: 'amount', op: 'contains', value: '1' },
    );
    expect(refusal(() => validateQuery(sut, fields, ['recordTrigger', 'query']))).toEqual([
      { customCode: 'queryUnknownField', path: ['recordTrigger', 'query', 'filters', 1, 'fieldId'] },
      { customCode: 'queryOperatorNotAllowed', path: ['recordTrigger', 'query', 'filters', 2, 'op'] },
    ]);
  });
});

describe('richTextPlainText', () => {
  it('joins the text nodes in document order without separator', () => {
    expect(richTextPlainText(acme.values.notes)).toBe('Big customerRenewal');
    expect(richTextPlainText(doc([]))).toBe('');
    expect(richTextPlainText('not a document')).toBe('');
    expect(richTextPlainText(undefined)).toBe('');
  });

  it('reads text nodes wherever they sit, members in jsonb key order (shorter keys first)', () => {
    const sut = {
      documentJson: { zz: { type: 'text', text: 'B' }, a: [{ text: 'A', type: 'text' }], type: 'x' },
    };
    expect(richTextPlainText(sut)).toBe('AB');
  });
});

describe('matchesQuery', () => {
  it('selects the records of the query type only', () => {
    expect(matches(acme, { typeId: TYPE })).toBe(true);
    expect(matches(acme, { typeId: TYPE.toUpperCase() })).toBe(true);
    expect(matches({ ...acme, typeId: OTHER_TYPE }, { typeId: TYPE })).toBe(false);
  });

  it('searches text-like values and rich-text plain text, case-insensitively, trimmed', () => {
    expect(selected({ typeId: TYPE, search: 'ACME' })).toEqual(['acme']);
    expect(selected({ typeId: TYPE, search: ' customer ' })).toEqual(['acme']); // split by marks
    expect(selected({ typeId: TYPE, search: 'won' })).toEqual(['acme']); // select
    expect(selected({ typeId: TYPE, search: '1200' })).toEqual([]); // numbers are not searched
    expect(selected({ typeId: TYPE, search: '   ' })).toEqual(['acme', 'blank', 'broken']);
  });

  it('compares text case-insensitively and select, numbers, dates and booleans exactly', () => {
    expect(selected(query({ fieldId: 'name', op: 'eq', value: 'ACME corp' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'email', op: 'in', value: ['x', 'info@acme.COM'] }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'stage', op: 'eq', value: 'Won' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'amount', op: 'eq', value: 0 }))).toEqual(['broken']);
    expect(selected(query({ fieldId: 'due', op: 'eq', value: '2024-03-01' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'active', op: 'eq', value: false }))).toEqual(['broken']);
  });

  it('never lets a missing value or an error equal anything: neq is true for them', () => {
    expect(selected(query({ fieldId: 'name', op: 'neq', value: 'acme corp' }))).toEqual(['blank', 'broken']);
    expect(selected(query({ fieldId: 'score', op: 'neq', value: 120 }))).toEqual(['blank', 'broken']);
    expect(selected(query({ fieldId: 'active', op: 'neq', value: true }))).toEqual(['blank', 'broken']);
  });

  it('matches substrings with contains, case-insensitively, never on missing values', () => {
    expect(selected(query({ fieldId: 'name', op: 'contains', value: 'CORP' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'notes', op: 'contains', value: 'CUSTOMERren' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'stage', op: 'contains', value: 'o' }))).toEqual(['acme']);
  });

  it('orders numbers and dates, false when missing or an error', () => {
    expect(selected(query({ fieldId: 'amount', op: 'gt', value: -1 }))).toEqual(['acme', 'broken']);
    expect(selected(query({ fieldId: 'score', op: 'lt', value: 1e9 }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'due', op: 'gt', value: '2024-02-29' }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'due', op: 'lt', value: '2024-03-01' }))).toEqual([]);
  });

  it('treats missing, null and empty text as empty, and an error, 0 and false as values', () => {
    expect(selected(query({ fieldId: 'name', op: 'isEmpty' }))).toEqual(['blank', 'broken']);
    expect(matches({ ...blank, values: { name: null } }, query({ fieldId: 'name', op: 'isEmpty' }))).toBe(
      true,
    );
    expect(selected(query({ fieldId: 'notes', op: 'isEmpty' }))).toEqual(['blank', 'broken']);
    expect(selected(query({ fieldId: 'score', op: 'isNotEmpty' }))).toEqual(['acme', 'broken']);
    expect(selected(query({ fieldId: 'amount', op: 'isNotEmpty' }))).toEqual(['acme', 'broken']);
    expect(selected(query({ fieldId: 'active', op: 'isEmpty' }))).toEqual(['blank']);
  });

  it('filters on relationships through link targets', () => {
    expect(selected(query({ fieldId: 'org', op: 'eq', value: ORG_A.toUpperCase() }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'org', op: 'neq', value: ORG_A }))).toEqual(['blank', 'broken']);
    expect(selected(query({ fieldId: 'org', op: 'in', value: [ORG_B, ORG_A] }))).toEqual(['acme']);
    expect(selected(query({ fieldId: 'org', op: 'in', value: [] }))).toEqual([]);
    expect(selected(query({ fieldId: 'org', op: 'isEmpty' }))).toEqual(['blank', 'broken']);
    expect(selected(query({ fieldId: 'org', op: 'isNotEmpty' }))).toEqual(['acme']);
  });

  it('matches nothing for a filter that no longer fits the fields (deleted field, changed kind)', () => {
    expect(selected(query({ fieldId: 'gone', op: 'isEmpty' }))).toEqual([]);
    expect(selected(query({ fieldId: 'gone', op: 'neq', value: 'x' }))).toEqual([]);
    expect(selected(query({ fieldId: 'name', op: 'gt', value: 'a' }))).toEqual([]);
    expect(selected(query({ fieldId: 'elsewhere', op: 'isEmpty' }))).toEqual([]);
  });

  it('needs every filter and the search to match', () => {
    const sut: RecordQuery = {
      typeId: TYPE,
      search: 'acme',
      filters: [
        { fieldId: 'amount', op: 'gt', value: 1000 },
        { fieldId: 'org', op: 'eq', value: ORG_B },
      ],
    };
    expect(matches(acme, sut)).toBe(false);
    expect(matches({ ...acme, links: { org: [ORG_A, ORG_B] } }, sut)).toBe(true);
  });

  it('reads only own keys of the values', () => {
    const sut = [field('constructor', 'text')];
    const filter: RecordFilter = { fieldId: 'constructor', op: 'isEmpty' };
    expect(matchesQuery(blank, query(filter), sut)).toBe(true);
  });
});

describe('queryToSql', () => {
  it('passes every value and field id as a numbered parameter after the offset', () => {
    const sut = queryToSql(
      {
        typeId: TYPE,
        search: "50%_o'k\\",
        filters: [
          { fieldId: 'name', op: 'eq', value: "x'; DROP TABLE records; --" },
          { fieldId: 'org', op: 'in', value: [ORG_A] },
        ],
      },
      fields,
      'r',
      2,
    );
    expect(sut.where).not.toMatch(/DROP|50%|o'k/);
    expect(sut.where).toContain('r.type_id = $3::uuid');
    expect(sut.params[0]).toBe(TYPE);
    expect(sut.params).toContain("50\\%\\_o'k\\\\"); // LIKE wildcards escaped
    expect(sut.params).toContain("x'; DROP TABLE records; --");
    expect(sut.params).toContain('name');
    const numbers = [...sut.where.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
    expect(Math.min(...numbers)).toBe(3);
    expect(Math.max(...numbers)).toBe(2 + sut.params.length);
  });

  it('uses each field key parameter once per field', () => {
    const sut = queryToSql(
      query({ fieldId: 'amount', op: 'gt', value: 1 }, { fieldId: 'amount', op: 'lt', value: 9 }),
      fields,
      'r',
    );
    expect(sut.params.filter((param) => param === 'amount')).toHaveLength(1);
  });

  it('turns filters that no longer fit into FALSE, and refuses an alias that is not an identifier', () => {
    expect(queryToSql(query({ fieldId: 'gone', op: 'isEmpty' }), fields, 'r').where).toBe(
      '(r.type_id = $1::uuid) AND (FALSE)',
    );
    expect(() => queryToSql(query(), fields, 'r; --')).toThrow('Not an SQL alias');
  });
});
