import { RecordEvent } from '../../src/records/record-event.entity';
import { recordEventEnvelope } from '../../src/records/record-envelope';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { rest, WebClient } from '../helpers/web-client';

/**
 * docs/events.md#record-events: every write through REST emits its events in
 * the outbox, in the same transaction, with the exact envelope and record data.
 */
describe('record events from REST writes', () => {
  let app: TestApp;
  let admin: WebClient;
  let key: string;
  let me: { user: { id: string }; workspace: { id: string } };
  type TypeRead = { id: string; fields: { id: string; name: string; kind: string }[] };
  let deal: TypeRead;
  let organization: TypeRead;
  const field = (type: TypeRead, name: string) => type.fields.find((f) => f.name === name)!.id;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const result = await call(method, path, body);
    if (result.status >= 300)
      throw new Error(`${method} ${path}: ${result.status} ${JSON.stringify(result.body)}`);
    return result.body;
  };
  const eventsOf = (recordId: string) =>
    app.dataSource.manager.find(RecordEvent, { where: { recordId }, order: { occurredAt: 'ASC' } });

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await WebClient.signUp(app.baseUrl, { email: 'rec@example.com', workspaceName: 'Records Inc' }))
      .client;
    key = (await admin.ok('POST', '/app/api/api-keys', { name: 'records' })).value;
    me = (await rest(app.baseUrl, key)).body;
    deal = (await ok('POST', '/model/read', { type: 'deal' })).type;
    organization = (await ok('POST', '/model/read', { type: 'Organizations' })).type;
  });
  afterAll(() => app.close());

  it('discovers the accessible types and resolves stable field ids', async () => {
    const discovered = await ok('POST', '/model/discover', {});
    expect(discovered.types.map((t: { builtin: string }) => t.builtin)).toEqual(
      expect.arrayContaining(['contact', 'organization', 'deal', 'service', 'task']),
    );
    expect(discovered.schemaRevision).toEqual(expect.any(Number));
    expect(deal.fields.map((f) => [f.name, f.kind])).toEqual(
      expect.arrayContaining([
        ['Amount', 'number'],
        ['Weighted amount', 'formula'],
        ['Organization', 'link'],
      ]),
    );
    const byId = await ok('POST', '/model/read', { type: deal.id });
    expect(byId.type.id).toBe(deal.id);
    expect((await call('POST', '/model/discover', { extra: 1 })).status).toBe(400);
    expect((await call('POST', '/model/read', { type: 'nope' })).body.error.issues[0].customCode).toBe(
      'recordTypeNotFound',
    );
  });

  it('record.created carries the envelope, after-values with kinds, the links and versions 0 → 1', async () => {
    const org = await ok('POST', '/records/organization', {
      values: { [field(organization, 'Name')]: 'Acme' },
    });
    const created = await ok('POST', '/records/deal', {
      values: {
        [field(deal, 'Name')]: 'Big deal',
        [field(deal, 'Amount')]: 1000,
        [field(deal, 'Probability')]: 0,
      },
      links: { [field(deal, 'Organization')]: [org.id] },
      assignments: [me.user.id],
    });
    expect(created.version).toBe(1);
    expect(created.values[field(deal, 'Weighted amount')]).toEqual({
      state: 'value',
      kind: 'formula',
      value: 0,
    });
    expect(created.values[field(deal, 'Stage')]).toEqual({ state: 'missing' });

    const [event] = await eventsOf(created.id);
    const envelope = recordEventEnvelope(event!);
    expect(envelope).toMatchObject({
      event: 'record.created',
      id: event!.id,
      companyId: me.workspace.id,
      actorId: me.user.id,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const data = envelope.data as any;
    expect(data.causeId).toEqual(expect.any(String));
    expect(data.cause).toMatchObject({ kind: 'api', apiKeyId: expect.any(String) });
    expect(data.record).toMatchObject({
      ref: { typeId: deal.id, recordId: created.id },
      schemaRevision: expect.any(Number),
      beforeVersion: 0,
      afterVersion: 1,
    });
    const amount = data.record.fields.find((f: { fieldId: string }) => f.fieldId === field(deal, 'Amount'));
    expect(amount).toEqual({
      fieldId: field(deal, 'Amount'),
      display: { label: 'Amount', kind: 'number', position: expect.any(Number) },
      before: { state: 'missing' },
      after: { state: 'value', kind: 'number', value: 1000 },
    });
    // Zero is a value, not a missing one.
    const probability = data.record.fields.find(
      (f: { fieldId: string }) => f.fieldId === field(deal, 'Probability'),
    );
    expect(probability.after).toEqual({ state: 'value', kind: 'number', value: 0 });
    expect(data.record.links).toEqual([
      {
        fieldId: field(deal, 'Organization'),
        display: { label: 'Organization' },
        change: 'added',
        record: { ref: { typeId: organization.id, recordId: org.id }, display: 'Acme' },
      },
    ]);
    expect(data.record.assignments).toEqual([
      { change: 'added', user: { id: me.user.id, name: expect.any(String) } },
    ]);
  });

  it('record.updated reports only what changed; a write that changes nothing emits nothing', async () => {
    const created = await ok('POST', '/records/deal', {
      values: { [field(deal, 'Name')]: 'Deal', [field(deal, 'Amount')]: 10 },
    });
    const updated = await ok('PATCH', `/records/deal/${created.id}`, {
      values: { [field(deal, 'Amount')]: 20, [field(deal, 'Name')]: 'Deal' },
    });
    expect(updated.version).toBe(2);
    const unchanged = await ok('PATCH', `/records/deal/${created.id}`, {
      values: { [field(deal, 'Amount')]: 20 },
    });
    expect(unchanged.version).toBe(2);

    const events = await eventsOf(created.id);
    expect(events.map((e) => e.event)).toEqual(['record.created', 'record.updated']);
    const data = events[1]!.data as any;
    expect(data.record).toMatchObject({ beforeVersion: 1, afterVersion: 2 });
    expect(data.record.fields.map((f: { fieldId: string }) => f.fieldId)).toEqual([field(deal, 'Amount')]);
    expect(data.record.fields[0]).toMatchObject({
      before: { state: 'value', kind: 'number', value: 10 },
      after: { state: 'value', kind: 'number', value: 20 },
    });

    const cleared = await ok('PATCH', `/records/deal/${created.id}`, {
      values: { [field(deal, 'Amount')]: null },
    });
    expect(cleared.values[field(deal, 'Amount')]).toEqual({ state: 'missing' });
    const last = (await eventsOf(created.id)).at(-1)!.data as any;
    expect(
      last.record.fields.find((f: { fieldId: string }) => f.fieldId === field(deal, 'Amount')).after,
    ).toEqual({
      state: 'missing',
    });
  });

  it('record.deleted, record.restored and record.deletedPermanently, with versions and the relationships left', async () => {
    const org = await ok('POST', '/records/organization', {
      values: { [field(organization, 'Name')]: 'Linked Co' },
    });
    const created = await ok('POST', '/records/deal', {
      values: { [field(deal, 'Name')]: 'Trashy' },
      links: { [field(deal, 'Organization')]: [org.id] },
    });
    const trashed = await ok('POST', `/records/deal/${created.id}/trash`);
    expect(trashed).toMatchObject({ status: 'trashed', version: 2 });
    expect(
      (await call('PATCH', `/records/deal/${created.id}`, { values: {} })).body.error.issues[0].customCode,
    ).toBe('recordTrashed');
    const restored = await ok('POST', `/records/deal/${created.id}/restore`);
    expect(restored).toMatchObject({ status: 'active', version: 3 });
    expect(restored.links[field(deal, 'Organization')]).toEqual([
      { ref: { typeId: organization.id, recordId: org.id }, display: 'Linked Co' },
    ]);
    // The trash and restore events, read before the permanent delete scrubs them.
    const beforeErasure = await eventsOf(created.id);
    const deleted = beforeErasure[1]!.data as any;
    expect(deleted.record).toMatchObject({ beforeVersion: 1, afterVersion: null });
    expect(deleted.record.fields[0]).toMatchObject({
      before: { state: 'value', value: 'Trashy' },
      after: { state: 'missing' },
    });
    expect(deleted.record.links).toEqual([
      expect.objectContaining({
        change: 'removed',
        record: expect.objectContaining({ display: 'Linked Co' }),
      }),
    ]);
    const restoredEvent = beforeErasure[2]!.data as any;
    expect(restoredEvent.record).toMatchObject({ beforeVersion: 2, afterVersion: 3 });
    expect(restoredEvent.record.fields[0]).toMatchObject({
      before: { state: 'missing' },
      after: { state: 'value', value: 'Trashy' },
    });

    expect((await call('DELETE', `/records/deal/${created.id}`)).body.error.issues[0].customCode).toBe(
      'recordNotTrashed',
    );
    await ok('POST', `/records/deal/${created.id}/trash`);
    expect((await call('DELETE', `/records/deal/${created.id}`)).status).toBe(204);
    expect((await call('GET', `/records/deal/${created.id}`)).status).toBe(404);

    const events = await eventsOf(created.id);
    expect(events.map((e) => e.event)).toEqual([
      'record.created',
      'record.deleted',
      'record.restored',
      'record.deleted',
      'record.deletedPermanently',
    ]);
    const permanent = events[4]!;
    expect(Object.keys(permanent.data.record as object)).toEqual(['ref']);
    expect(permanent.data.record).toEqual({ ref: { typeId: deal.id, recordId: created.id } });
    // Earlier events lose their field values but keep who and when.
    for (const earlier of events.slice(0, 4)) {
      expect(earlier.scrubbedAt).toBeInstanceOf(Date);
      expect(earlier.actorId).toBe(me.user.id);
      expect(JSON.stringify(earlier.data)).not.toContain('Trashy');
      expect(JSON.stringify(earlier.data)).not.toContain('Linked Co');
    }
  });

  it('gives every event of one write its own id and the write its own causeId', async () => {
    const a = await ok('POST', '/records/deal', { values: { [field(deal, 'Name')]: 'A' } });
    const b = await ok('POST', '/records/deal', { values: { [field(deal, 'Name')]: 'B' } });
    const [ea] = await eventsOf(a.id);
    const [eb] = await eventsOf(b.id);
    expect(ea!.id).not.toBe(eb!.id);
    expect(ea!.causeId).not.toBe(eb!.causeId);
    expect((ea!.data as any).causeId).toBe(ea!.causeId);
  });

  it('a formula change recalculates stored values, raises the schema revision, and emits no event', async () => {
    const created = await ok('POST', '/records/deal', {
      values: { [field(deal, 'Name')]: 'F', [field(deal, 'Amount')]: 200, [field(deal, 'Probability')]: 50 },
    });
    expect(created.values[field(deal, 'Weighted amount')]).toMatchObject({ value: 100 });
    const revisionBefore = (await ok('POST', '/model/discover', {})).schemaRevision;
    const eventsBefore = await app.dataSource.manager.count(RecordEvent);

    await ok('PATCH', `/model/fields/${field(deal, 'Weighted amount')}`, {
      config: { expression: `{${field(deal, 'Amount')}} * 2` },
    });
    expect((await ok('POST', '/model/discover', {})).schemaRevision).toBe(revisionBefore + 1);
    const after = await ok('GET', `/records/deal/${created.id}`);
    expect(after.values[field(deal, 'Weighted amount')]).toMatchObject({ value: 400 });
    expect(after.version).toBe(created.version);
    expect(await app.dataSource.manager.count(RecordEvent)).toBe(eventsBefore);
    const [history] = await app.dataSource.query(
      `SELECT change, records_recalculated FROM model_history WHERE workspace_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [me.workspace.id],
    );
    expect(history.change).toBe('field.updated');
    expect(history.records_recalculated).toBeGreaterThanOrEqual(1);

    // A later user or API edit emits its usual event.
    await ok('PATCH', `/records/deal/${created.id}`, { values: { [field(deal, 'Amount')]: 201 } });
    expect((await eventsOf(created.id)).at(-1)!.event).toBe('record.updated');
  });

  it('renaming a type or a field keeps its id; model changes raise the revision', async () => {
    const before = (await ok('POST', '/model/discover', {})).schemaRevision;
    const type = await ok('POST', '/model/types', { name: 'Projects' });
    await ok('PATCH', `/model/types/${type.id}`, { name: 'Initiatives' });
    const read = await ok('POST', '/model/read', { type: 'Initiatives' });
    expect(read.type.id).toBe(type.id);
    expect(read.schemaRevision).toBe(before + 2);
    const budget = await ok('POST', `/model/types/${type.id}/fields`, { name: 'Budget', kind: 'number' });
    await ok('PATCH', `/model/fields/${budget.id}`, { name: 'Money' });
    const again = await ok('POST', '/model/read', { type: type.id });
    expect(again.type.fields.find((f: { id: string }) => f.id === budget.id).name).toBe('Money');
  });

  it('refuses bad writes with the spec body and writes nothing', async () => {
    const before = await app.dataSource.manager.count(RecordEvent);
    const cases: [unknown, string][] = [
      [{ values: { [field(deal, 'Amount')]: 'lots' } }, 'recordValueInvalid'],
      [{ values: { [field(deal, 'Weighted amount')]: 5 } }, 'recordFieldReadOnly'],
      [{ values: { '00000000-0000-4000-8000-000000000000': 1 } }, 'recordFieldUnknown'],
      [
        { links: { [field(deal, 'Organization')]: ['00000000-0000-4000-8000-000000000000'] } },
        'recordLinkTargetInvalid',
      ],
      [{ assignments: ['00000000-0000-4000-8000-000000000000'] }, 'recordAssigneeInvalid'],
      [{ identities: [{ kind: 'email', value: 'nope' }] }, 'recordIdentityInvalid'],
      [{ values: {}, surprise: true }, 'unknownField'],
    ];
    for (const [body, customCode] of cases) {
      const refused = await call('POST', '/records/deal', body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues[0].customCode).toBe(customCode);
    }
    expect(await app.dataSource.manager.count(RecordEvent)).toBe(before);
  });
});
