import { loadActor } from '../../src/identity/actor';
import { loadRecordAccess } from '../../src/record-model/record-access';
import { RecordEvent } from '../../src/records/record-event.entity';
import { redactRecordEventData, type RecordEventData } from '../../src/records/redaction';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { memberWithRole, WebClient } from '../helpers/web-client';

/**
 * Record access through the role, with the one redaction function used by deliveries and Event
 * Details: a role that cannot read one field, and one that cannot read the type.
 */
describe('record access and redaction', () => {
  let app: TestApp;
  let admin: WebClient;
  let adminKey: string;
  let workspaceId: string;
  let deal: { id: string; fields: { id: string; name: string }[] };
  const field = (name: string) => deal.fields.find((f) => f.name === name)!.id;

  const api = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  async function memberWith(email: string, role: Record<string, unknown>) {
    const { key, userId } = await memberWithRole(admin, app.baseUrl, email, role);
    return { key, userId };
  }

  beforeAll(async () => {
    app = await startTestApp();
    const signedUp = await WebClient.signUp(app.baseUrl, { email: 'boss@example.com' });
    admin = signedUp.client;
    workspaceId = signedUp.session.workspace.id;
    adminKey = (await admin.ok('POST', '/app/api/api-keys', { name: 'admin' })).value;
    deal = (await api(adminKey, 'POST', '/model/read', { type: 'deal' })).body.type;
  });
  afterAll(() => app.close());

  it('shows a restricted field as restricted (never as missing or zero), in reads and in events', async () => {
    const amountHidden = await memberWith('noamount@example.com', { restrictedFieldIds: [field('Amount')] });
    const created = (
      await api(adminKey, 'POST', '/records/deal', {
        values: { [field('Name')]: 'Secret deal', [field('Amount')]: 0 },
      })
    ).body;

    const read = await api(amountHidden.key, 'GET', `/records/deal/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.values[field('Amount')]).toEqual({ state: 'restricted' });
    expect(read.body.values[field('Name')]).toEqual({ state: 'value', kind: 'text', value: 'Secret deal' });

    const model = await api(amountHidden.key, 'POST', '/model/read', { type: 'deal' });
    expect(model.body.type.fields.find((f: { id: string }) => f.id === field('Amount')).restricted).toBe(
      true,
    );

    // Writing the field it cannot read is refused.
    const write = await api(amountHidden.key, 'PATCH', `/records/deal/${created.id}`, {
      values: { [field('Amount')]: 5 },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.issues[0]).toMatchObject({
      customCode: 'recordFieldRestricted',
      path: ['values', field('Amount')],
    });

    const [event] = await app.dataSource.manager.findBy(RecordEvent, { recordId: created.id });
    const viewer = (await loadActor(app.dataSource.manager, workspaceId, amountHidden.userId))!;
    const redacted = redactRecordEventData(
      event!.data as unknown as RecordEventData,
      await loadRecordAccess(app.dataSource.manager, workspaceId, viewer.role),
    ) as RecordEventData;
    const amount = redacted.record.fields!.find((f) => f.fieldId === field('Amount'))!;
    expect(amount.before).toEqual({ state: 'restricted' });
    expect(amount.after).toEqual({ state: 'restricted' });
    // The stored event keeps the real value for readers who may see it.
    const stored = (event!.data as any).record.fields.find(
      (f: { fieldId: string }) => f.fieldId === field('Amount'),
    );
    expect(stored.after).toEqual({ state: 'value', kind: 'number', value: 0 });
  });

  it('hides a type the role cannot read: absent from the model, records answer 404, event payload empty', async () => {
    const noDeals = await memberWith('nodeals@example.com', { recordAccess: { [deal.id]: 'none' } });
    const created = (await api(adminKey, 'POST', '/records/deal', { values: { [field('Name')]: 'Hidden' } }))
      .body;

    const discovered = await api(noDeals.key, 'POST', '/model/discover', {});
    expect(discovered.body.types.map((t: { id: string }) => t.id)).not.toContain(deal.id);
    expect(discovered.body.types.length).toBeGreaterThan(0);
    expect((await api(noDeals.key, 'POST', '/model/read', { type: 'deal' })).status).toBe(404);
    const read = await api(noDeals.key, 'GET', `/records/deal/${created.id}`);
    expect(read.status).toBe(404);
    expect(read.body.error.issues[0].customCode).toBe('recordTypeNotFound');
    expect((await api(noDeals.key, 'POST', '/records/deal', { values: {} })).status).toBe(404);

    const [event] = await app.dataSource.manager.findBy(RecordEvent, { recordId: created.id });
    const viewer = (await loadActor(app.dataSource.manager, workspaceId, noDeals.userId))!;
    expect(
      redactRecordEventData(
        event!.data as unknown as RecordEventData,
        await loadRecordAccess(app.dataSource.manager, workspaceId, viewer.role),
      ),
    ).toEqual({});
  });

  it('applies a change of record access on the next call', async () => {
    const member = await memberWith('changing@example.com', {});
    const created = (
      await api(adminKey, 'POST', '/records/deal', { values: { [field('Name')]: 'Now you see it' } })
    ).body;
    expect((await api(member.key, 'GET', `/records/deal/${created.id}`)).status).toBe(200);
    const roles = (await admin.ok('GET', '/app/api/roles')).data;
    const role = roles.find((r: { name: string }) => r.name === 'changing@example.com');
    await admin.ok('PATCH', `/app/api/roles/${role.id}`, { defaultRecordAccess: 'none' });
    expect((await api(member.key, 'GET', `/records/deal/${created.id}`)).status).toBe(404);
  });

  it('never lets a record be read or written from another workspace', async () => {
    const created = (await api(adminKey, 'POST', '/records/deal', { values: { [field('Name')]: 'Mine' } }))
      .body;
    const other = await WebClient.signUp(app.baseUrl, { email: 'other@example.com' });
    const otherKey = (await other.client.ok('POST', '/app/api/api-keys', { name: 'o' })).value;
    expect((await api(otherKey, 'GET', `/records/deal/${created.id}`)).status).toBe(404);
    expect((await api(otherKey, 'PATCH', `/records/deal/${created.id}`, { values: {} })).status).toBe(404);
    expect((await api(otherKey, 'POST', `/records/deal/${created.id}/trash`)).status).toBe(404);
    // Nor under the wrong type in its own workspace.
    expect((await api(adminKey, 'GET', `/records/contact/${created.id}`)).status).toBe(404);
  });
});
