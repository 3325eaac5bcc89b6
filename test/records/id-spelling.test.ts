import { IdSpelling1764691200000 } from '../../src/app/db/migrations/2025-12-02-from-noon/1764691200000-id-spelling';
import { connectMcp } from '../helpers/mcp';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { keyCall, memberWithRole, WebClient } from '../helpers/web-client';
import { withoutIds } from '../helpers/without-ids';

/**
 * Issue 34, item 5, from the side of Sam, whose role hides Amount: PostgreSQL matches a uuid in any
 * case, the rules compared ids exactly, so Amount's id written in upper case passed the restriction
 * and still filtered on Amount, and a webhook filter saved with it showed its value. Ids are now
 * lowered where a request is parsed (and in what was stored before), so every spelling of Amount's
 * id is refused or masked exactly as the lower-case one, over REST, the web app and MCP.
 */
const SECRET = 31337;
const MASK = '********';
const leaks = (answer: unknown) => withoutIds(JSON.stringify(answer)).includes(String(SECRET));

describe('one spelling of an id: a hidden field stays hidden in any case', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  let sam: { client: WebClient; key: string };
  let deal: string;
  let revision: number;
  let amount: string;
  let name: string;
  let spellings: string[];

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'id-admin@example.com' })).client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    const model = (await keyCall(app.baseUrl, adminKey, 'POST', '/model/read', { type: 'deal' })).body;
    deal = model.type.id;
    revision = model.schemaRevision;
    const field = (fieldName: string) =>
      model.type.fields.find((f: any) => f.name === fieldName).id as string;
    amount = field('Amount');
    name = field('Name');
    const mixed = [...amount].map((char, index) => (index % 2 ? char.toUpperCase() : char)).join('');
    spellings = [amount, amount.toUpperCase(), mixed];
    for (const [dealName, value] of [
      ['Secret deal', SECRET],
      ['Small deal', 5],
    ] as const) {
      const created = await keyCall(app.baseUrl, adminKey, 'POST', '/records/deal', {
        values: { [name]: dealName, [amount]: value },
      });
      expect(created.status).toBe(201);
    }
    sam = await memberWithRole(admin, app.baseUrl, 'id-sam@example.com', {
      apiEdit: true,
      restrictedFieldIds: [amount],
    });
  });
  afterAll(() => app.close());

  const refusalOf = (body: any) => [body?.error?.issues?.[0]?.customCode, body?.error?.issues?.[0]?.path];

  it('REST and /app/api: a filter on the hidden field is refused in every spelling, as in lower case', async () => {
    for (const fieldId of spellings) {
      const filters = encodeURIComponent(JSON.stringify([{ fieldId, op: 'gt', value: SECRET - 1 }]));
      const rest = await keyCall(app.baseUrl, sam.key, 'GET', `/records/deal?filters=${filters}`);
      expect([fieldId, rest.status, ...refusalOf(rest.body)]).toEqual([
        fieldId,
        400,
        'recordFieldRestricted',
        ['filters', 0, 'fieldId'],
      ]);
      expect(leaks(rest.body)).toBe(false);
      const web = await sam.client.request<any>('GET', `/app/api/records/deal?filters=${filters}`);
      expect([fieldId, web.status, ...refusalOf(web.body)]).toEqual([
        fieldId,
        400,
        'recordFieldRestricted',
        ['filters', 0, 'fieldId'],
      ]);
    }
  });

  it('MCP: search_records refuses a filter on the hidden field in every spelling, as in lower case', async () => {
    const mcp = await connectMcp(app.baseUrl, sam.key);
    try {
      for (const fieldId of spellings) {
        const result = await mcp.call('search_records', {
          type: 'deal',
          filters: [{ fieldId, op: 'gt', value: SECRET - 1 }],
        });
        expect([fieldId, result.isError, result._meta?.failure?.issues?.[0]?.customCode]).toEqual([
          fieldId,
          true,
          'recordFieldRestricted',
        ]);
        expect(result.content[0]!.text).not.toContain('Secret deal');
      }
    } finally {
      await mcp.client.close();
    }
  });

  it('a write of the hidden field is refused in every spelling, as in lower case', async () => {
    const answers: [number, string][] = [];
    for (const fieldId of spellings) {
      const written = await keyCall(app.baseUrl, sam.key, 'POST', '/records/deal', {
        values: { [name]: 'Probe', [fieldId]: 1 },
      });
      answers.push([written.status, refusalOf(written.body)[0]]);
    }
    expect(answers).toEqual(spellings.map(() => answers[0]));
    expect(answers[0]![1]).toBe('recordFieldRestricted');
  });

  it("an Admin's webhook filter written in upper or mixed case reads masked to Sam, over REST and MCP", async () => {
    const created = await keyCall(app.baseUrl, adminKey, 'POST', '/webhooks', {
      url: 'https://erp.example.com/in',
      events: ['record.created'],
      expectedSchemaRevision: revision,
      recordTrigger: {
        query: { typeId: deal, filters: [{ fieldId: spellings[1], op: 'gt', value: SECRET }] },
        changedFieldIds: [spellings[2]],
      },
    });
    expect(created.status).toBe(201);
    // Saved in the one spelling the database answers with.
    expect(created.body.recordTrigger.query.filters[0].fieldId).toBe(amount);
    const masked = { fieldId: amount, op: 'gt', value: MASK };
    const rest = await keyCall(app.baseUrl, sam.key, 'GET', `/webhooks/${created.body.id}`);
    expect(rest.body.recordTrigger).toEqual({
      query: { typeId: deal, filters: [masked] },
      changedFieldIds: [MASK],
    });
    expect(leaks(rest.body)).toBe(false);
    const mcp = await connectMcp(app.baseUrl, sam.key);
    try {
      const read = await mcp.call('manage_webhooks', { action: 'get', id: created.body.id });
      expect(read.structuredContent.recordTrigger.query.filters).toEqual([masked]);
      expect(leaks(read)).toBe(false);
    } finally {
      await mcp.client.close();
    }
  });

  it('Sam cannot save a webhook filtering on the hidden field in any spelling; nothing is stored', async () => {
    const before = (await keyCall(app.baseUrl, adminKey, 'GET', '/webhooks?limit=200')).body.data.length;
    for (const fieldId of spellings) {
      const refused = await keyCall(app.baseUrl, sam.key, 'POST', '/webhooks', {
        url: 'https://sam.example.com/in',
        events: ['record.created'],
        expectedSchemaRevision: revision,
        recordTrigger: { query: { typeId: deal.toUpperCase(), filters: [{ fieldId, op: 'gt', value: 1 }] } },
      });
      expect([fieldId, refused.status, refusalOf(refused.body)[0]]).toEqual([
        fieldId,
        400,
        'webhookFieldRestricted',
      ]);
    }
    expect((await keyCall(app.baseUrl, adminKey, 'GET', '/webhooks?limit=200')).body.data).toHaveLength(
      before,
    );
  });

  it('a role restricting the field by its upper-case id restricts it', async () => {
    const uma = await memberWithRole(admin, app.baseUrl, 'id-uma@example.com', {
      restrictedFieldIds: [amount.toUpperCase()],
    });
    const listed = await keyCall(app.baseUrl, uma.key, 'GET', '/records/deal');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((record: any) => record.values[amount])).toEqual([
      { state: 'restricted' },
      { state: 'restricted' },
    ]);
    expect(leaks(listed.body)).toBe(false);
  });

  it('ids stored in another spelling before are lowered by the migration, so they mask and restrict', async () => {
    const hook = await keyCall(app.baseUrl, adminKey, 'POST', '/webhooks', {
      url: 'https://old.example.com/in',
      events: ['record.created'],
      expectedSchemaRevision: revision,
      recordTrigger: { query: { typeId: deal, filters: [{ fieldId: amount, op: 'lt', value: SECRET }] } },
    });
    const ola = await memberWithRole(admin, app.baseUrl, 'id-ola@example.com', {
      restrictedFieldIds: [amount],
    });
    // As a webhook and a role written before the fix held them.
    await app.dataSource.query(
      `UPDATE webhooks SET record_trigger = replace(record_trigger::text, $2, upper($2))::jsonb WHERE id = $1`,
      [hook.body.id, amount],
    );
    await app.dataSource.query(
      `UPDATE roles SET restricted_field_ids = jsonb_build_array(upper($1)) WHERE name = 'id-ola@example.com'`,
      [amount],
    );
    const runner = app.dataSource.createQueryRunner();
    try {
      await new IdSpelling1764691200000().up(runner);
    } finally {
      await runner.release();
    }
    const read = await keyCall(app.baseUrl, sam.key, 'GET', `/webhooks/${hook.body.id}`);
    expect(read.body.recordTrigger.query.filters).toEqual([{ fieldId: amount, op: 'lt', value: MASK }]);
    const listed = await keyCall(app.baseUrl, ola.key, 'GET', '/records/deal');
    expect(leaks(listed.body)).toBe(false);
  });
});
