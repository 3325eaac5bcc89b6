import { recordAccessOf, type FormulaSource } from '../record-model/record-access';
import { redactRecordEventData, type RecordEventData } from './redaction';

const data: RecordEventData = {
  causeId: 'c1',
  cause: { kind: 'api' },
  record: {
    ref: { typeId: 'deal', recordId: 'r1' },
    schemaRevision: 3,
    beforeVersion: 1,
    afterVersion: 2,
    fields: [
      {
        fieldId: 'name',
        display: { label: 'Name', kind: 'text', position: 0 },
        before: { state: 'missing' },
        after: { state: 'value', kind: 'text', value: 'Big deal' },
      },
      {
        fieldId: 'amount',
        display: { label: 'Amount', kind: 'number', position: 1 },
        before: { state: 'value', kind: 'number', value: 1 },
        after: { state: 'value', kind: 'number', value: 2 },
      },
    ],
    links: [
      {
        fieldId: 'org',
        display: { label: 'Organization' },
        change: 'added',
        record: { ref: { typeId: 'organization', recordId: 'o1' }, display: 'Acme' },
      },
    ],
    assignments: [],
    identities: [],
  },
};

// The two types' fields as access sees them: each type's first text field is its display name.
const fields: FormulaSource[] = [
  { id: 'name', typeId: 'deal', kind: 'text', config: {}, position: 0 },
  { id: 'amount', typeId: 'deal', kind: 'number', config: {}, position: 1 },
  { id: 'org-name', typeId: 'organization', kind: 'text', config: {}, position: 0 },
];

const access = (readable: string[], restricted: string[] = []) =>
  recordAccessOf(
    {
      isAdmin: false,
      defaultRecordAccess: 'none',
      recordAccess: Object.fromEntries(readable.map((typeId) => [typeId, 'all' as const])),
      restrictedFieldIds: restricted,
    },
    fields,
  );

describe('redactRecordEventData', () => {
  it('leaves a payload the reader may fully read unchanged', () => {
    expect(redactRecordEventData(data, access(['deal', 'organization']))).toEqual(data);
  });

  it('turns the values of a restricted field into restricted, on both sides', () => {
    const sut = redactRecordEventData(data, access(['deal', 'organization'], ['amount'])) as RecordEventData;
    expect(sut.record.fields![1]).toMatchObject({
      fieldId: 'amount',
      before: { state: 'restricted' },
      after: { state: 'restricted' },
    });
    expect(sut.record.fields![0]!.after).toEqual({ state: 'value', kind: 'text', value: 'Big deal' });
    expect(JSON.stringify(sut)).not.toContain('"value":2');
  });

  it('keeps every change of an update the reader can read none of, each restricted on both sides', () => {
    const amountOnly: RecordEventData = {
      ...data,
      record: { ...data.record, fields: [data.record.fields![1]!], links: [] },
    };
    const sut = redactRecordEventData(amountOnly, access(['deal', 'organization'], ['amount']));
    // A hidden-only update is delivered (docs/deliveries.md#what-the-record-owner-cannot-read): it
    // says which field changed, never how.
    expect(sut).toEqual({
      ...amountOnly,
      record: {
        ...amountOnly.record,
        fields: [
          {
            fieldId: 'amount',
            display: { label: 'Amount', kind: 'number', position: 1 },
            before: { state: 'restricted' },
            after: { state: 'restricted' },
          },
        ],
      },
    });
  });

  it('yields an empty payload when the record type cannot be read', () => {
    expect(redactRecordEventData(data, access(['organization']))).toEqual({});
  });

  it('hides the display of a linked record whose type cannot be read, and drops restricted link fields', () => {
    const sut = redactRecordEventData(data, access(['deal'])) as RecordEventData;
    expect(sut.record.links![0]!.record).toEqual({
      ref: { typeId: 'organization', recordId: 'o1' },
      display: null,
    });
    const hidden = redactRecordEventData(data, access(['deal', 'organization'], ['org'])) as RecordEventData;
    expect(hidden.record.links).toEqual([]);
  });

  it('hides the display of a linked record whose display field (its name) is restricted', () => {
    const sut = redactRecordEventData(
      data,
      access(['deal', 'organization'], ['org-name']),
    ) as RecordEventData;
    expect(sut.record.links![0]!.record).toEqual({
      ref: { typeId: 'organization', recordId: 'o1' },
      display: null,
    });
    expect(JSON.stringify(sut)).not.toContain('Acme');
  });

  it('does not change the stored payload it was given', () => {
    const copy = JSON.parse(JSON.stringify(data));
    redactRecordEventData(data, access(['deal'], ['amount']));
    expect(data).toEqual(copy);
  });
});
