import { startTestApp, type TestApp } from '../helpers/test-app';
import { WebClient } from '../helpers/web-client';

/** `GET /api/v1/records/{type}`: search, field and relationship filters, Trash, paging. */
describe('listing records', () => {
  let app: TestApp;
  let key: string;
  let deal: { id: string; fields: { id: string; name: string }[] };
  let organization: { id: string; fields: { id: string; name: string }[] };
  let acmeId: string;
  const f = (type: typeof deal, name: string) => type.fields.find((x) => x.name === name)!.id;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const names = (page: { data: { values: Record<string, { value?: unknown }> }[] }) =>
    page.data.map((record) => record.values[f(deal, 'Name')]!.value);
  const list = async (params: Record<string, string>) =>
    (await api('GET', `/records/deal?${new URLSearchParams(params)}`)).body;

  beforeAll(async () => {
    app = await startTestApp();
    const admin = (await WebClient.signUp(app.baseUrl, { email: 'lister@example.com' })).client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
    deal = (await api('POST', '/model/read', { type: 'deal' })).body.type;
    organization = (await api('POST', '/model/read', { type: 'organization' })).body.type;
    const acme = (
      await api('POST', '/records/organization', { values: { [f(organization, 'Name')]: 'Acme' } })
    ).body;
    const specs: [string, number | null, string | null, boolean][] = [
      ['Alpha 50% off', 100, 'Won', true],
      ['Beta', 250, 'Lead', false],
      ['Gamma', null, 'Lost', true],
      ['Delta', 900, 'Won', false],
    ];
    for (const [name, amount, stage, linked] of specs) {
      const values: Record<string, unknown> = { [f(deal, 'Name')]: name, [f(deal, 'Stage')]: stage };
      if (amount !== null) values[f(deal, 'Amount')] = amount;
      await api('POST', '/records/deal', {
        values,
        links: linked ? { [f(deal, 'Organization')]: [acme.id] } : {},
      });
    }
    acmeId = acme.id;
  });
  afterAll(() => app.close());

  it('lists newest first and pages with an opaque cursor', async () => {
    const first = await list({ limit: '3' });
    expect(names(first)).toEqual(['Delta', 'Gamma', 'Beta']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await list({ limit: '3', cursor: first.nextCursor });
    expect(names(second)).toEqual(['Alpha 50% off']);
    expect(second.nextCursor).toBeNull();
    expect((await api('GET', '/records/deal?cursor=garbage')).body.error.issues[0].customCode).toBe(
      'cursorInvalid',
    );
    expect((await api('GET', '/records/deal?limit=500')).status).toBe(400);
  });

  it('searches, filters by fields and by relationship', async () => {
    expect(names(await list({ search: '50%' }))).toEqual(['Alpha 50% off']);
    const filter = (filters: unknown[]) => list({ filters: JSON.stringify(filters) });
    expect(names(await filter([{ fieldId: f(deal, 'Stage'), op: 'eq', value: 'Won' }]))).toEqual([
      'Delta',
      'Alpha 50% off',
    ]);
    expect(names(await filter([{ fieldId: f(deal, 'Amount'), op: 'gt', value: 200 }]))).toEqual([
      'Delta',
      'Beta',
    ]);
    expect(names(await filter([{ fieldId: f(deal, 'Amount'), op: 'isEmpty' }]))).toEqual(['Gamma']);
    expect(names(await filter([{ fieldId: f(deal, 'Organization'), op: 'eq', value: acmeId }]))).toEqual([
      'Gamma',
      'Alpha 50% off',
    ]);
  });

  it('refuses bad filters with the spec body', async () => {
    const bad = await api('GET', `/records/deal?filters=${encodeURIComponent('[{"fieldId":"x"')}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].customCode).toBe('queryFiltersInvalid');
    const wrongOp = await api(
      'GET',
      `/records/deal?filters=${encodeURIComponent(JSON.stringify([{ fieldId: f(deal, 'Name'), op: 'gt', value: 'x' }]))}`,
    );
    expect(wrongOp.status).toBe(400);
    expect(wrongOp.body.error.issues[0].customCode).toBe('queryOperatorNotAllowed');
  });

  it('lists the Trash separately', async () => {
    const beta = (await list({ search: 'Beta' })).data[0];
    await api('POST', `/records/deal/${beta.id}/trash`);
    expect(names(await list({}))).not.toContain('Beta');
    expect(names(await list({ status: 'trashed' }))).toEqual(['Beta']);
  });
});
