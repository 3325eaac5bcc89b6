import { CrmRecord } from '../../src/records/crm-record.entity';
import { RecordEvent } from '../../src/records/record-event.entity';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { keyCall, memberWithRole, WebClient } from '../helpers/web-client';

/**
 * REST record writes take a field by id or by name, through the same resolution as the MCP record
 * tools (`resolveWriteFields`; issue 27, item 8), and every refusal writes nothing.
 */
describe('REST record writes by field name', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  type TypeRead = { id: string; name: string; fields: { id: string; name: string; kind: string }[] };
  let deal: TypeRead;
  let organization: TypeRead;
  const field = (type: TypeRead, name: string) => type.fields.find((f) => f.name === name)!.id;

  const api = (key: string, method: string, path: string, body?: unknown) =>
    keyCall(app.baseUrl, key, method, path, body);
  const ok = async (method: string, path: string, body?: unknown, key = adminKey) => {
    const result = await api(key, method, path, body);
    if (result.status >= 300)
      throw new Error(`${method} ${path}: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  };
  /** What a refusal may have changed: every record's version and the outbox. */
  const state = async () => ({
    records: (await app.dataSource.manager.find(CrmRecord, { order: { id: 'ASC' } })).map(
      (r) => `${r.id}:${r.version}:${JSON.stringify(r.values)}`,
    ),
    events: await app.dataSource.manager.count(RecordEvent),
  });

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'names@example.com' })).client;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'names' })).value;
    deal = (await ok('POST', '/model/read', { type: 'deal' })).type;
    organization = (await ok('POST', '/model/read', { type: 'organization' })).type;
  });
  afterAll(() => app.close());

  it('creates and updates with field names in values and links, answering by field id', async () => {
    const org = await ok('POST', '/records/organization', { values: { name: 'Acme' } });
    expect(org.values[field(organization, 'Name')]).toMatchObject({ value: 'Acme' });

    const created = await api(adminKey, 'POST', '/records/deal', {
      values: { Name: 'By name', ' amount ': 1200, [field(deal, 'Probability')]: 50 },
      links: { ORGANIZATION: [org.id] },
    });
    expect(created.status).toBe(201);
    expect(created.body.values[field(deal, 'Name')]).toEqual({
      state: 'value',
      kind: 'text',
      value: 'By name',
    });
    expect(created.body.values[field(deal, 'Amount')]).toMatchObject({ value: 1200 });
    expect(created.body.values[field(deal, 'Weighted amount')]).toMatchObject({ value: 600 });
    expect(created.body.links[field(deal, 'Organization')]).toEqual([
      expect.objectContaining({ ref: { typeId: organization.id, recordId: org.id } }),
    ]);

    const updated = await ok('PATCH', `/records/deal/${created.body.id}`, {
      values: { Amount: 1300, name: null },
    });
    expect(updated.version).toBe(2);
    expect(updated.values[field(deal, 'Amount')]).toMatchObject({ value: 1300 });
    expect(updated.values[field(deal, 'Name')]).toEqual({ state: 'missing' });
    const [event] = await app.dataSource.manager.find(RecordEvent, {
      where: { recordId: created.body.id, event: 'record.updated' },
    });
    expect((event!.data as any).record.fields.map((f: { fieldId: string }) => f.fieldId).sort()).toEqual(
      [field(deal, 'Amount'), field(deal, 'Name'), field(deal, 'Weighted amount')].sort(),
    );
  });

  it('refuses unknown names, a field sent twice and a field in the wrong section, all at once, writing nothing', async () => {
    const target = await ok('POST', '/records/deal', { values: { Name: 'Untouched' } });
    const before = await state();

    const refused = await api(adminKey, 'PATCH', `/records/deal/${target.id}`, {
      values: { Nmae: 'x', Name: 'y', [field(deal, 'Name')]: 'z', Organization: 'Acme' },
      links: { Amount: [] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.kind).toBe('validation');
    expect(refused.body.error.issues).toEqual([
      {
        code: 'invalid',
        path: ['values', 'Nmae'],
        customCode: 'recordFieldUnknown',
        message: expect.stringMatching(
          /^No field "Nmae" in Deals\. Its fields: Name, .*Amount.*; or use a field id from POST \/api\/v1\/model\/read\.$/,
        ),
      },
      expect.objectContaining({ path: ['values', field(deal, 'Name')], customCode: 'recordFieldDuplicate' }),
      {
        code: 'invalid',
        path: ['values', 'Organization'],
        customCode: 'recordFieldUnknown',
        message: 'Organization is a link field: set it in links (record ids).',
      },
      {
        code: 'invalid',
        path: ['links', 'Amount'],
        customCode: 'recordFieldUnknown',
        message: 'Amount is not a link field: set it in values.',
      },
    ]);
    // An unknown field id is refused as before, and so is a create.
    const unknownId = await api(adminKey, 'POST', '/records/deal', {
      values: { '00000000-0000-4000-8000-000000000000': 1 },
    });
    expect(unknownId.status).toBe(400);
    expect(unknownId.body.error.issues).toEqual([
      expect.objectContaining({
        path: ['values', '00000000-0000-4000-8000-000000000000'],
        customCode: 'recordFieldUnknown',
      }),
    ]);
    expect(await state()).toEqual(before);
  });

  it('refuses a name two fields share with their ids; an id always means its own field, whatever another is named', async () => {
    const type = await ok('POST', '/model/types', { name: 'Projects' });
    const budget = await ok('POST', `/model/types/${type.id}/fields`, { name: 'Budget', kind: 'number' });
    const second = await ok('POST', `/model/types/${type.id}/fields`, { name: 'Budget 2', kind: 'number' });
    // The database keeps live names unique per type, letter case aside (record_fields_name_key)…
    await expect(
      app.dataSource.query(`UPDATE record_fields SET name = 'budget' WHERE id = $1`, [second.id]),
    ).rejects.toThrow(/record_fields_name_key/);
    // …but names are matched trimmed, and one saved with spaces around it outside the API is the same name.
    await app.dataSource.query(`UPDATE record_fields SET name = ' budget ' WHERE id = $1`, [second.id]);
    await ok('POST', `/model/types/${type.id}/fields`, { name: 'Revision bump', kind: 'number' });
    // A field named after another field's id (a name is free text).
    const code = await ok('POST', `/model/types/${type.id}/fields`, { name: 'Code', kind: 'text' });
    const shadow = await ok('POST', `/model/types/${type.id}/fields`, { name: code.id, kind: 'text' });
    const before = await state();

    const ambiguous = await api(adminKey, 'POST', `/records/${type.id}`, { values: { BUDGET: 5 } });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.error.issues).toEqual([
      {
        code: 'invalid',
        path: ['values', 'BUDGET'],
        customCode: 'recordFieldAmbiguous',
        message: `Several fields of Projects are named "BUDGET": use the field id from POST /api/v1/model/read (${budget.id}, ${second.id}).`,
      },
    ]);
    expect(await state()).toEqual(before);

    const byIds = await ok('POST', `/records/${type.id}`, {
      values: { [budget.id]: 1, [second.id]: 2, [code.id]: 'by id', [shadow.id]: 'shadow by id' },
    });
    expect(byIds.values[budget.id]).toMatchObject({ value: 1 });
    expect(byIds.values[second.id]).toMatchObject({ value: 2 });
    expect(byIds.values[code.id]).toMatchObject({ value: 'by id' });
    expect(byIds.values[shadow.id]).toMatchObject({ value: 'shadow by id' });
    // code.id is Code's id before it is the other field's name.
    const byCodeId = await ok('PATCH', `/records/${type.id}/${byIds.id}`, { values: { [code.id]: 'again' } });
    expect(byCodeId.values[code.id]).toMatchObject({ value: 'again' });
    expect(byCodeId.values[shadow.id]).toMatchObject({ value: 'shadow by id' });
  });

  it('answers the name of a field the caller cannot see exactly as a name that does not exist (attacker side)', async () => {
    // Payroll: a type the member's role cannot read; Salary is its field.
    const payroll = await ok('POST', '/model/types', { name: 'Payroll' });
    await ok('POST', `/model/types/${payroll.id}/fields`, { name: 'Salary', kind: 'number' });
    const salaryId = (await ok('POST', '/model/read', { type: 'Payroll' })).type.fields[0].id;
    // Commission: a deal field that was deleted.
    const commission = await ok('POST', `/model/types/${deal.id}/fields`, {
      name: 'Commission',
      kind: 'number',
    });
    await ok('DELETE', `/model/fields/${commission.id}`);
    const member = await memberWithRole(admin, app.baseUrl, 'nopayroll@example.com', {
      recordAccess: { [payroll.id]: 'none' },
    });
    const target = await ok('POST', '/records/deal', { values: { Name: 'Probe me' } });
    const before = await state();

    const answer = async (reference: string) => {
      const result = await api(member.key, 'PATCH', `/records/deal/${target.id}`, {
        values: { [reference]: 1 },
      });
      // The reference itself is echoed in path and message; everything else must be equal.
      return JSON.stringify(result).replaceAll(reference, '<reference>');
    };
    const neverUsed = await answer('Zzzzzz');
    expect(JSON.parse(neverUsed).status).toBe(400);
    expect(await answer('Salary')).toBe(neverUsed);
    expect(await answer('salary')).toBe(neverUsed);
    expect(await answer('Commission')).toBe(neverUsed);
    // By id too: a field of another type, or a deleted one, is no field of this type.
    expect(await answer(salaryId)).toBe(neverUsed);
    expect(await answer(commission.id)).toBe(neverUsed);
    // The type itself stays hidden, by name as by id.
    const hiddenType = await api(member.key, 'POST', '/records/Payroll', { values: { Salary: 1 } });
    expect(hiddenType.status).toBe(404);
    expect(hiddenType.body.error.issues[0].customCode).toBe('recordTypeNotFound');
    expect(await state()).toEqual(before);
  });

  it('refuses a restricted field by name exactly as by id, and never lists it among the fields', async () => {
    const amount = field(deal, 'Amount');
    const member = await memberWithRole(admin, app.baseUrl, 'noamount@example.com', {
      restrictedFieldIds: [amount],
    });
    const target = await ok('POST', '/records/deal', { values: { Name: 'Secret amount', Amount: 7 } });
    const before = await state();

    const byId = await api(member.key, 'PATCH', `/records/deal/${target.id}`, { values: { [amount]: 8 } });
    const byName = await api(member.key, 'PATCH', `/records/deal/${target.id}`, { values: { amount: 8 } });
    expect(byId.status).toBe(403);
    expect(byId.body.error.issues).toEqual([
      expect.objectContaining({ path: ['values', amount], customCode: 'recordFieldRestricted' }),
    ]);
    expect(byName).toEqual(byId);
    const created = await api(member.key, 'POST', '/records/deal', { values: { Name: 'x', Amount: 8 } });
    expect(created).toEqual(byId);
    // The weighted amount is computed from it, so it is restricted too.
    const weighted = await api(member.key, 'PATCH', `/records/deal/${target.id}`, {
      values: { 'Weighted amount': 8 },
    });
    expect(weighted.status).toBe(403);

    const unknown = await api(member.key, 'PATCH', `/records/deal/${target.id}`, { values: { Nope: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.issues[0].message).toContain('Its fields: Name,');
    expect(unknown.body.error.issues[0].message).not.toMatch(/Amount|Weighted amount/);
    expect(await state()).toEqual(before);

    // The member writes the fields it can read by name.
    const written = await ok(
      'PATCH',
      `/records/deal/${target.id}`,
      { values: { Name: 'Renamed' } },
      member.key,
    );
    expect(written.values[field(deal, 'Name')]).toMatchObject({ value: 'Renamed' });
    expect(written.values[amount]).toEqual({ state: 'restricted' });
  });
});
