import type { FieldDef } from '../../record-model/field-kinds';
import { RECORD_EVENTS } from '../../shared/events/event-catalog';
import { testEventData, type SampleRecordType } from './test-event';

const field = (id: string, name: string, kind: FieldDef['kind'], position: number): FieldDef => ({
  id,
  typeId: 't1',
  name,
  kind,
  config: {},
  position,
});
const type: SampleRecordType = {
  id: 't1',
  name: 'Deals',
  schemaRevision: 7,
  readableFields: [field('f-name', 'Name', 'text', 0), field('f-amount', 'Amount', 'number', 1)],
};
const ids = { recordId: 'r1', causeId: 'c1', entityId: 'e1', accountId: 'a1' };

describe('testEventData', () => {
  it('marks every sample with test: true', () => {
    for (const event of [...RECORD_EVENTS, 'messaging.email.received' as const]) {
      expect(testEventData(event, ids, type)).toMatchObject({ test: true });
    }
  });

  it('gives each record event the versions and sides the real one has', () => {
    const record = (event: (typeof RECORD_EVENTS)[number]) =>
      (testEventData(event, ids, type) as { record: Record<string, any> }).record;
    expect(record('record.created')).toMatchObject({ beforeVersion: 0, afterVersion: 1, schemaRevision: 7 });
    expect(record('record.created').fields).toEqual([
      expect.objectContaining({ fieldId: 'f-name', before: { state: 'missing' } }),
      expect.objectContaining({ fieldId: 'f-amount', after: expect.objectContaining({ value: 42 }) }),
    ]);
    expect(record('record.deleted')).toMatchObject({ beforeVersion: 2, afterVersion: null });
    expect(record('record.deleted').fields[0].after).toEqual({ state: 'missing' });
    // An update reports only what changed: the renamed name.
    expect(record('record.updated').fields).toEqual([
      expect.objectContaining({
        fieldId: 'f-name',
        before: expect.objectContaining({ value: 'Sample deal' }),
        after: expect.objectContaining({ value: 'Sample deal (renamed)' }),
      }),
    ]);
    // record.deletedPermanently carries the ref only.
    expect(record('record.deletedPermanently')).toEqual({ ref: { typeId: 't1', recordId: 'r1' } });
  });

  it('shows only the fields it is given (the record owner’s readable ones)', () => {
    const only = testEventData('record.created', ids, { ...type, readableFields: [type.readableFields[1]!] });
    const fields = (only as { record: { fields: { fieldId: string }[] } }).record.fields;
    expect(fields.map((f) => f.fieldId)).toEqual(['f-amount']);
  });

  it('gives messaging samples made-up provider ids and no record', () => {
    expect(testEventData('messaging.message.received', ids)).toEqual({
      test: true,
      entityId: 'e1',
      connectedAccountId: 'a1',
      provider: 'sample',
      providerMessageId: 'sample-e1',
      threadId: 'sample-thread-e1',
    });
  });
});
