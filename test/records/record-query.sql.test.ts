import { Client } from 'pg';
import type { FieldDef, FieldKind } from '../../src/record-model/field-kinds';
import {
  matchesQuery,
  type MatchableRecord,
  type RecordFilter,
  type RecordQuery,
} from '../../src/records/query/record-query';
import { queryToSql } from '../../src/records/query/record-query.sql';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

/**
 * queryToSql must select exactly the records matchesQuery accepts. Own tables in an own schema,
 * with the columns the query uses, so the test does not depend on the records migration.
 */

const uuid = (group: string, n: number) => `7a1e0c2b-${group}-4000-8000-${String(n).padStart(12, '0')}`;
const TYPE = uuid('0001', 1);
const OTHER_TYPE = uuid('0001', 2);
const ORG = [1, 2, 3].map((n) => uuid('0002', n)) as [string, string, string];
const F = {
  name: uuid('0003', 1),
  email: uuid('0003', 2),
  site: uuid('0003', 3),
  stage: uuid('0003', 4),
  notes: uuid('0003', 5),
  amount: uuid('0003', 6),
  score: uuid('0003', 7),
  due: uuid('0003', 8),
  active: uuid('0003', 9),
  org: uuid('0003', 10),
  elsewhere: uuid('0003', 11),
};

const field = (id: string, kind: FieldKind, config: FieldDef['config'] = {}, typeId = TYPE): FieldDef => ({
  id,
  typeId,
  name: id,
  kind,
  config,
  position: 0,
});
const fields: FieldDef[] = [
  field(F.name, 'text'),
  field(F.email, 'email'),
  field(F.site, 'url'),
  field(F.stage, 'select', { options: ['Lead', 'Won', 'Lost', '50%_off', "O'Neil"] }),
  field(F.notes, 'richText'),
  field(F.amount, 'number'),
  field(F.score, 'formula', { expression: `{${F.amount}} / 10` }),
  field(F.due, 'date'),
  field(F.active, 'boolean'),
  field(F.org, 'link', { targetTypeId: OTHER_TYPE }),
  field(F.elsewhere, 'text', {}, OTHER_TYPE),
];

const doc = (...paragraphs: unknown[][]) => ({
  documentJson: { type: 'doc', content: paragraphs.map((content) => ({ type: 'paragraph', content })) },
});
const text = (value: string, marks?: unknown[]) => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});

type Fixture = {
  id: string;
  typeId: string;
  values: Record<string, unknown>;
  links: Record<string, string[]>;
};
const fixture = (
  n: number,
  values: Record<string, unknown>,
  links: string[] = [],
  typeId = TYPE,
): Fixture => ({
  id: uuid('0004', n),
  typeId,
  values,
  links: links.length > 0 ? { [F.org]: links } : {},
});

const fixtures: Fixture[] = [
  fixture(
    1,
    {
      [F.name]: 'Acme Corp',
      [F.email]: 'info@acme.com',
      [F.site]: 'https://acme.com/a_b',
      [F.stage]: 'Won',
      [F.notes]: doc([text('Big '), text('cust', [{ type: 'bold' }]), text('omer')], [text('Renewal')]),
      [F.amount]: 1200,
      [F.score]: 120,
      [F.due]: '2024-03-01',
      [F.active]: true,
    },
    [ORG[0]],
  ),
  fixture(
    2,
    {
      [F.name]: 'acme labs',
      [F.stage]: 'Lead',
      [F.amount]: 0,
      [F.score]: { $error: 'division by zero' },
      [F.due]: '2023-12-31',
      [F.active]: false,
    },
    [ORG[0], ORG[1]],
  ),
  fixture(3, { [F.name]: '', [F.amount]: -5.5, [F.score]: -0.55, [F.notes]: doc([]), [F.email]: '' }),
  fixture(
    4,
    {
      [F.name]: "O'Brien \\ 100% _sure_",
      [F.stage]: '50%_off',
      [F.amount]: 1e21,
      [F.score]: 12.5,
      [F.notes]: doc([text('Ärger mit ΣΟΦΊΑ')]),
      [F.site]: 'http://x.test/100%25',
    },
    [ORG[1]],
  ),
  fixture(5, {}, [ORG[1]]),
  fixture(6, {
    [F.name]: 'ÄRGER GmbH',
    [F.email]: 'Ärger@Example.DE',
    [F.notes]: doc([text('Hello')], [text('World')]),
    [F.amount]: '5', // a stale value of the wrong JSON type
    [F.due]: '2024-03-01',
    [F.active]: 'true',
  }),
  fixture(7, { [F.name]: 'Acme', [F.elsewhere]: 'Acme' }, [ORG[0]], OTHER_TYPE),
  fixture(8, { [F.name]: null, [F.stage]: 'Lost', [F.amount]: 1200.0, [F.notes]: null, [F.due]: null }),
  fixture(9, {
    [F.name]: 'percent%sign and under_score',
    [F.stage]: "O'Neil",
    [F.notes]: {
      // jsonb stores "zz" before "content" (shorter keys first), which is the order text is read in
      documentJson: { content: [{ text: 'head ', type: 'text' }], zz: text('tail'), type: 'doc' },
    },
    [F.amount]: 0.1 + 0.2,
    [F.score]: 0.03,
    [F.due]: '2024-02-29',
  }),
  fixture(10, { [F.name]: 'a\\b', [F.email]: 'x_y@z.io', [F.notes]: 'not a document', [F.score]: 0 }),
  fixture(11, {
    [F.name]: 'Pete, ΟΔΟΣ 5, İstanbul',
    [F.notes]: { documentJson: { type: 'doc', content: [text('')] } },
  }),
];

const filter = (fieldId: string, op: RecordFilter['op'], value?: unknown): RecordFilter =>
  value === undefined ? { fieldId, op } : { fieldId, op, value };
const q = (...filters: RecordFilter[]): RecordQuery => ({ typeId: TYPE, filters });
const search = (term: string, ...filters: RecordFilter[]): RecordQuery => ({
  typeId: TYPE,
  search: term,
  filters,
});

const queries: RecordQuery[] = [
  { typeId: TYPE },
  { typeId: OTHER_TYPE },
  { typeId: uuid('0001', 9) },
  // search
  ...[
    'acme',
    'ACME',
    '  acme  ',
    '',
    'cust',
    'customer',
    'CUSTOMERren',
    'loWor',
    'headtail',
    'tailhead',
    'ärger',
    'σοφία',
    'οδοσ 5',
    'istanbul',
  ].map((term) => search(term)),
  ...['%', '_', '100%', '\\', "'", "o'b", 'a_b', '_sure_', '%sign', 'nothing', 'won', 'x_y', 'a\\b'].map(
    (term) => search(term),
  ),
  // text, email, url
  q(filter(F.name, 'eq', 'acme corp')),
  q(filter(F.name, 'eq', 'ACME CORP')),
  q(filter(F.name, 'eq', '')),
  q(filter(F.name, 'eq', "O'Brien \\ 100% _sure_")),
  q(filter(F.name, 'eq', "o'brien \\ 100% _SURE_")),
  q(filter(F.name, 'eq', 'ärger gmbh')),
  q(filter(F.name, 'neq', 'acme corp')),
  q(filter(F.name, 'in', ['acme corp', 'ACME LABS', 'x'])),
  q(filter(F.name, 'in', [])),
  q(filter(F.name, 'contains', '%')),
  q(filter(F.name, 'contains', '_')),
  q(filter(F.name, 'contains', '\\')),
  q(filter(F.name, 'contains', "'")),
  q(filter(F.name, 'contains', '100%')),
  q(filter(F.name, 'contains', '% _')),
  q(filter(F.name, 'contains', 'ä')),
  q(filter(F.name, 'contains', "'; DROP TABLE records; --")),
  q(filter(F.name, 'isEmpty')),
  q(filter(F.name, 'isNotEmpty')),
  q(filter(F.email, 'eq', 'INFO@ACME.COM')),
  q(filter(F.email, 'contains', 'ÄRGER@')),
  q(filter(F.email, 'contains', '_')),
  q(filter(F.email, 'isEmpty')),
  q(filter(F.site, 'contains', '%25')),
  q(filter(F.site, 'contains', 'a_b')),
  // select
  q(filter(F.stage, 'eq', 'Won')),
  q(filter(F.stage, 'eq', "O'Neil")),
  q(filter(F.stage, 'neq', 'Won')),
  q(filter(F.stage, 'in', ['Won', 'Lost', '50%_off'])),
  q(filter(F.stage, 'contains', 'o')),
  q(filter(F.stage, 'contains', '%_')),
  q(filter(F.stage, 'isEmpty')),
  // richText
  q(filter(F.notes, 'contains', 'CUST')),
  q(filter(F.notes, 'contains', 'omerRen')),
  q(filter(F.notes, 'contains', 'head tail')),
  q(filter(F.notes, 'contains', 'Σοφία')),
  q(filter(F.notes, 'isEmpty')),
  q(filter(F.notes, 'isNotEmpty')),
  // number and formula
  q(filter(F.amount, 'eq', 0)),
  q(filter(F.amount, 'eq', 1200)),
  q(filter(F.amount, 'eq', 0.3)),
  q(filter(F.amount, 'eq', 0.1 + 0.2)),
  q(filter(F.amount, 'eq', 5)),
  q(filter(F.amount, 'neq', 1200)),
  q(filter(F.amount, 'gt', 0)),
  q(filter(F.amount, 'gt', -100)),
  q(filter(F.amount, 'lt', 0.30000000000000004)),
  q(filter(F.amount, 'gt', 1e20)),
  q(filter(F.amount, 'in', [0, 1200, 5])),
  q(filter(F.amount, 'isEmpty')),
  q(filter(F.amount, 'isNotEmpty')),
  q(filter(F.score, 'eq', 120)),
  q(filter(F.score, 'neq', 120)),
  q(filter(F.score, 'gt', 0)),
  q(filter(F.score, 'lt', 0)),
  q(filter(F.score, 'lt', 1e9)),
  q(filter(F.score, 'in', [0, 12.5])),
  q(filter(F.score, 'isEmpty')),
  q(filter(F.score, 'isNotEmpty')),
  // date
  q(filter(F.due, 'eq', '2024-03-01')),
  q(filter(F.due, 'neq', '2024-03-01')),
  q(filter(F.due, 'gt', '2024-01-01')),
  q(filter(F.due, 'lt', '2024-03-01')),
  q(filter(F.due, 'in', ['2024-02-29', '2023-12-31'])),
  q(filter(F.due, 'isEmpty')),
  // boolean
  q(filter(F.active, 'eq', true)),
  q(filter(F.active, 'eq', false)),
  q(filter(F.active, 'neq', true)),
  q(filter(F.active, 'in', [false])),
  q(filter(F.active, 'isEmpty')),
  q(filter(F.active, 'isNotEmpty')),
  // links
  q(filter(F.org, 'eq', ORG[0])),
  q(filter(F.org, 'eq', ORG[1].toUpperCase())),
  q(filter(F.org, 'neq', ORG[0])),
  q(filter(F.org, 'in', [ORG[0], ORG[2]])),
  q(filter(F.org, 'in', [ORG[2]])),
  q(filter(F.org, 'in', [])),
  q(filter(F.org, 'isEmpty')),
  q(filter(F.org, 'isNotEmpty')),
  // filters that no longer fit the fields match nothing
  q(filter(uuid('0003', 99), 'isEmpty')),
  q(filter(F.elsewhere, 'isEmpty')),
  q(filter(F.name, 'gt', 'a')),
  q(filter(F.stage, 'eq', 'Maybe')),
  // combinations
  q(filter(F.amount, 'gt', -1), filter(F.org, 'isNotEmpty')),
  q(filter(F.name, 'contains', 'acme'), filter(F.org, 'neq', ORG[1]), filter(F.active, 'isNotEmpty')),
  search('acme', filter(F.amount, 'lt', 100)),
  search('%', filter(F.stage, 'isNotEmpty'), filter(F.due, 'isEmpty')),
];

describe('queryToSql selects what matchesQuery accepts (real PostgreSQL)', () => {
  let db: TestDatabase;
  let client: Client;
  let stored: (MatchableRecord & { id: string })[];

  beforeAll(async () => {
    db = await createTestDatabase(1);
    client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query(`CREATE SCHEMA q; SET search_path TO q`);
    await client.query(
      `CREATE TABLE records (id uuid PRIMARY KEY, type_id uuid NOT NULL, values jsonb NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE record_links (record_id uuid NOT NULL, field_id uuid NOT NULL, target_record_id uuid NOT NULL)`,
    );
    for (const record of fixtures) {
      await client.query(`INSERT INTO records (id, type_id, values) VALUES ($1, $2, $3)`, [
        record.id,
        record.typeId,
        JSON.stringify(record.values),
      ]);
      for (const [fieldId, targets] of Object.entries(record.links)) {
        for (const target of targets) {
          await client.query(`INSERT INTO record_links VALUES ($1, $2, $3)`, [record.id, fieldId, target]);
        }
      }
    }
    // The in-memory side sees the records as they come back from PostgreSQL, as production does.
    const rows = await client.query<{ id: string; type_id: string; values: Record<string, unknown> }>(
      `SELECT id, type_id, values FROM records ORDER BY id`,
    );
    stored = rows.rows.map((row) => ({
      id: row.id,
      typeId: row.type_id,
      values: row.values,
      links: fixtures.find((record) => record.id === row.id)!.links,
    }));
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  async function selectIds(query: RecordQuery, prefix = '', prefixParams: unknown[] = []): Promise<string[]> {
    const { where, params } = queryToSql(query, fields, 'r', prefixParams.length);
    const rows = await client.query<{ id: string }>(
      `SELECT r.id FROM records r WHERE ${prefix}${where} ORDER BY r.id`,
      [...prefixParams, ...params],
    );
    return rows.rows.map((row) => row.id);
  }

  const expectedIds = (query: RecordQuery) =>
    stored.filter((record) => matchesQuery(record, query, fields)).map((record) => record.id);

  it.each(queries.map((query, index) => [index, JSON.stringify(query), query] as const))(
    'query %i %s',
    async (_index, _label, query) => {
      expect(await selectIds(query)).toEqual(expectedIds(query));
    },
  );

  it('also agrees on the records as written (before a jsonb round trip)', () => {
    for (const query of queries) {
      const asWritten = fixtures
        .filter((record) => matchesQuery(record, query, fields))
        .map((record) => record.id);
      expect(asWritten.sort()).toEqual(expectedIds(query));
    }
  });

  it('selects meaningful, varied sets (the comparison above is not vacuous)', () => {
    const sizes = new Set(queries.map((query) => expectedIds(query).length));
    expect(sizes.size).toBeGreaterThan(6);
    const n = (id: number) => uuid('0004', id);
    expect(expectedIds(search('%'))).toEqual([n(4), n(9)]);
    expect(expectedIds(search('_'))).toEqual([n(1), n(4), n(9), n(10)]);
    expect(expectedIds(q(filter(F.name, 'contains', '\\')))).toEqual([n(4), n(10)]);
    expect(expectedIds(search('σοφία'))).toEqual([n(4)]);
    expect(expectedIds(search('customerren'))).toEqual([n(1)]);
    expect(expectedIds(search('tailhead'))).toEqual([n(9)]);
    expect(expectedIds(search('ΟΔΟΣ 5, istanbul'))).toEqual([n(11)]); // per code point, as lower()
    expect(expectedIds(q(filter(F.name, 'eq', 'ärger gmbh')))).toEqual([n(6)]);
    expect(expectedIds(q(filter(F.notes, 'isEmpty')))).toEqual([n(2), n(3), n(5), n(8), n(10), n(11)]);
    expect(expectedIds(q(filter(F.org, 'neq', ORG[0])))).toEqual([
      n(3),
      n(4),
      n(5),
      n(6),
      n(8),
      n(9),
      n(10),
      n(11),
    ]);
  });

  it('works after other parameters of the caller (paramOffset)', async () => {
    const query = search('acme', filter(F.org, 'in', [ORG[0], ORG[1]]));
    const ids = await selectIds(query, `r.id <> $1::uuid AND r.type_id = $2::uuid AND `, [
      uuid('0004', 2),
      TYPE,
    ]);
    expect(ids).toEqual([uuid('0004', 1)]);
  });

  it('leaves the tables intact after injection attempts', async () => {
    const count = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM records`);
    expect(count.rows[0]!.n).toBe(fixtures.length);
  });
});
