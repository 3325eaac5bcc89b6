import type { FieldDef } from '../../record-model/field-kinds';
import type { MatchableRecord } from '../../records/query/record-query';
import type { RecordEventData } from '../../records/redaction';
import {
  ASSIGNMENTS_CHANGED,
  changedFieldIdsOf,
  IDENTITIES_CHANGED,
  needsCurrentState,
  stateBeforeDeletion,
  webhookReceivesRecordEvent,
  type SubscribedWebhook,
} from './subscription-match';

const DEAL = '11111111-1111-4111-8111-111111111111';
const CONTACT = '22222222-2222-4222-8222-222222222222';
const STAGE = '33333333-3333-4333-8333-333333333333';
const AMOUNT = '44444444-4444-4444-8444-444444444444';
/** A formula computed from Amount: restricted with it. */
const WEIGHTED = '55555555-5555-4555-8555-555555555555';
const fields: FieldDef[] = [
  {
    id: STAGE,
    typeId: DEAL,
    name: 'Stage',
    kind: 'select',
    config: { options: ['Won', 'Lost'] },
    position: 0,
  },
  { id: AMOUNT, typeId: DEAL, name: 'Amount', kind: 'number', config: {}, position: 1 },
];
const everything = { canReadType: () => true, isFieldRestricted: () => false, canReadDisplayOf: () => true };
const webhook = (overrides: Partial<SubscribedWebhook>): SubscribedWebhook => ({
  events: ['record.created', 'record.updated', 'record.deleted', 'record.deletedPermanently'],
  recordTrigger: null,
  recordSources: null,
  ownerAccess: everything,
  ...overrides,
});
const won: MatchableRecord = { typeId: DEAL, values: { [STAGE]: 'Won', [AMOUNT]: 5 }, links: {} };
const updated = (changed: string[], state = won) => ({
  event: 'record.updated' as const,
  typeId: DEAL,
  changedFieldIds: changed,
  state,
});
const wonOnly = { query: { typeId: DEAL, filters: [{ fieldId: STAGE, op: 'eq' as const, value: 'Won' }] } };

describe('webhookReceivesRecordEvent', () => {
  it('with no trigger and no sources, takes every type the owner can read', () => {
    expect(webhookReceivesRecordEvent(webhook({}), updated([AMOUNT]), fields)).toBe(true);
    const noDeals = { ...everything, canReadType: (t: string) => t !== DEAL };
    expect(webhookReceivesRecordEvent(webhook({ ownerAccess: noDeals }), updated([AMOUNT]), fields)).toBe(
      false,
    );
    expect(webhookReceivesRecordEvent(webhook({ ownerAccess: undefined }), updated([AMOUNT]), fields)).toBe(
      false,
    );
  });

  it('needs the event among the subscribed ones', () => {
    expect(
      webhookReceivesRecordEvent(webhook({ events: ['record.created'] }), updated([AMOUNT]), fields),
    ).toBe(false);
  });

  it('matches a trigger by type and filters', () => {
    expect(webhookReceivesRecordEvent(webhook({ recordTrigger: wonOnly }), updated([AMOUNT]), fields)).toBe(
      true,
    );
    const lost = { ...won, values: { [STAGE]: 'Lost' } };
    expect(
      webhookReceivesRecordEvent(webhook({ recordTrigger: wonOnly }), updated([AMOUNT], lost), fields),
    ).toBe(false);
    const contact = {
      event: 'record.created' as const,
      typeId: CONTACT,
      changedFieldIds: [],
      state: { typeId: CONTACT, values: {}, links: {} },
    };
    expect(webhookReceivesRecordEvent(webhook({ recordTrigger: wonOnly }), contact, fields)).toBe(false);
  });

  it('never matches a filter on a field the owner cannot read, whatever its value (no oracle)', () => {
    const noAmount = { ...everything, isFieldRestricted: (id: string) => id === AMOUNT };
    const over = (op: 'gt' | 'lt' | 'isEmpty' | 'isNotEmpty', value?: number) =>
      webhook({
        ownerAccess: noAmount,
        recordTrigger: { query: { typeId: DEAL, filters: [{ fieldId: AMOUNT, op, value }] } },
      });
    for (const hook of [over('gt', 1), over('lt', 10), over('isEmpty'), over('isNotEmpty')]) {
      expect(webhookReceivesRecordEvent(hook, updated([AMOUNT]), fields)).toBe(false);
    }
    expect(
      webhookReceivesRecordEvent({ ...over('gt', 1), ownerAccess: everything }, updated([AMOUNT]), fields),
    ).toBe(true);
  });

  it('applies changedFieldIds to record.updated only', () => {
    const stageChanges = webhook({ recordTrigger: { ...wonOnly, changedFieldIds: [STAGE] } });
    expect(webhookReceivesRecordEvent(stageChanges, updated([AMOUNT]), fields)).toBe(false);
    expect(webhookReceivesRecordEvent(stageChanges, updated([STAGE, AMOUNT]), fields)).toBe(true);
    expect(
      webhookReceivesRecordEvent(stageChanges, { ...updated([]), event: 'record.created' }, fields),
    ).toBe(true);
  });

  it('follows each of several sources with its own events', () => {
    const sources = webhook({
      recordSources: [
        { query: { typeId: CONTACT }, events: ['record.created'] },
        { query: { typeId: DEAL }, events: ['record.deleted'] },
      ],
    });
    expect(webhookReceivesRecordEvent(sources, updated([AMOUNT]), fields)).toBe(false);
    expect(webhookReceivesRecordEvent(sources, { ...updated([]), event: 'record.deleted' }, fields)).toBe(
      true,
    );
  });

  it('sends record.deletedPermanently to every source of the type, without filters', () => {
    const gone = {
      event: 'record.deletedPermanently' as const,
      typeId: DEAL,
      changedFieldIds: [],
      state: undefined,
    };
    expect(webhookReceivesRecordEvent(webhook({ recordTrigger: wonOnly }), gone, fields)).toBe(true);
    expect(
      webhookReceivesRecordEvent(webhook({ recordTrigger: { query: { typeId: CONTACT } } }), gone, fields),
    ).toBe(false);
  });
});

describe('an update of only fields the owner cannot read (docs/deliveries.md#what-the-record-owner-cannot-read)', () => {
  const noAmount = {
    ...everything,
    isFieldRestricted: (id: string) => id === AMOUNT || id === WEIGHTED,
  };
  const receives = (
    hook: Partial<SubscribedWebhook>,
    event: Parameters<typeof webhookReceivesRecordEvent>[1],
  ) => webhookReceivesRecordEvent(webhook({ ownerAccess: noAmount, ...hook }), event, fields);

  it('reaches the webhook when every change is on a field the owner cannot read (rendered restricted)', () => {
    expect(receives({}, updated([AMOUNT, WEIGHTED]))).toBe(true);
    expect(receives({}, updated([AMOUNT]))).toBe(true);
  });

  it('reaches it as well with anything else changed beside: a readable field, assignees, identities', () => {
    expect(receives({}, updated([AMOUNT, STAGE]))).toBe(true);
    expect(receives({}, updated([AMOUNT, ASSIGNMENTS_CHANGED]))).toBe(true);
    expect(receives({}, updated([WEIGHTED, IDENTITIES_CHANGED]))).toBe(true);
    expect(receives({}, updated([]))).toBe(true);
    expect(receives({ ownerAccess: everything }, updated([AMOUNT]))).toBe(true);
  });

  it('leaves created, deleted and restored as they were: delivered, redacted', () => {
    const events = ['record.created', 'record.updated', 'record.deleted', 'record.restored'];
    for (const event of ['record.created', 'record.deleted', 'record.restored'] as const) {
      expect(receives({ events }, { ...updated([AMOUNT]), event })).toBe(true);
    }
  });

  it('goes to every source that selects the record, and only there: filters still apply', () => {
    expect(receives({ recordSources: [{ query: { typeId: DEAL } }] }, updated([AMOUNT, WEIGHTED]))).toBe(
      true,
    );
    expect(receives({ recordTrigger: wonOnly }, updated([AMOUNT]))).toBe(true);
    const lost = { ...won, values: { [STAGE]: 'Lost', [AMOUNT]: 5 } };
    expect(receives({ recordTrigger: wonOnly }, updated([AMOUNT], lost))).toBe(false);
    expect(receives({ recordTrigger: { query: { typeId: CONTACT } } }, updated([AMOUNT]))).toBe(false);
    // A filter on the hidden field itself still never matches (no oracle), hidden-only update or not.
    const overAmount = {
      query: { typeId: DEAL, filters: [{ fieldId: AMOUNT, op: 'gt' as const, value: 1 }] },
    };
    expect(receives({ recordTrigger: overAmount }, updated([AMOUNT]))).toBe(false);
    // An Admin owner (nothing hidden) receives it through the same sources.
    expect(receives({ ownerAccess: everything, recordTrigger: overAmount }, updated([AMOUNT]))).toBe(true);
  });

  it('never matches a watched field the owner cannot read (restricted since it was saved)', () => {
    const watchesAmount = { recordTrigger: { ...wonOnly, changedFieldIds: [AMOUNT] } };
    expect(receives(watchesAmount, updated([STAGE, AMOUNT]))).toBe(false);
    expect(receives(watchesAmount, updated([AMOUNT]))).toBe(false);
    const watchesBoth = { recordTrigger: { ...wonOnly, changedFieldIds: [AMOUNT, STAGE] } };
    expect(receives(watchesBoth, updated([STAGE, AMOUNT]))).toBe(true);
    expect(receives(watchesBoth, updated([AMOUNT]))).toBe(false);
    // The same watch, once the owner reads Amount again, counts it.
    expect(receives({ ...watchesAmount, ownerAccess: everything }, updated([AMOUNT]))).toBe(true);
  });
});

describe('needsCurrentState', () => {
  it('is needed by a webhook with a trigger or sources, not by one that lists events alone', () => {
    expect(needsCurrentState(webhook({}))).toBe(false);
    expect(needsCurrentState(webhook({ recordTrigger: wonOnly }))).toBe(true);
    expect(needsCurrentState(webhook({ recordSources: [wonOnly] }))).toBe(true);
  });

  it('is safe to skip: a webhook that does not need it matches the same without it', () => {
    for (const event of [updated([AMOUNT]), updated([AMOUNT], { ...won, typeId: CONTACT })]) {
      expect(webhookReceivesRecordEvent(webhook({}), { ...event, state: undefined }, fields)).toBe(
        webhookReceivesRecordEvent(webhook({}), event, fields),
      );
    }
  });
});

describe('event helpers', () => {
  const deleted: RecordEventData = {
    causeId: 'c',
    cause: { kind: 'web' },
    record: {
      ref: { typeId: DEAL, recordId: 'r' },
      fields: [
        {
          fieldId: STAGE,
          display: { label: 'Stage', kind: 'select', position: 0 },
          before: { state: 'value', kind: 'select', value: 'Won' },
          after: { state: 'missing' },
        },
        {
          fieldId: AMOUNT,
          display: { label: 'Amount', kind: 'number', position: 1 },
          before: { state: 'missing' },
          after: { state: 'missing' },
        },
      ],
      links: [
        {
          fieldId: 'org',
          display: { label: 'Org' },
          change: 'removed',
          record: { ref: { typeId: 'o', recordId: 'o1' }, display: 'Acme' },
        },
      ],
    },
  };

  it('rebuilds the state just before a move to the Trash', () => {
    expect(stateBeforeDeletion(DEAL, deleted)).toEqual({
      typeId: DEAL,
      values: { [STAGE]: 'Won' },
      links: { org: ['o1'] },
    });
  });

  it('lists changed fields and link fields', () => {
    expect(changedFieldIdsOf(deleted)).toEqual([STAGE, AMOUNT, 'org']);
  });

  it('stands for changed assignees and identities with markers no field id reads like', () => {
    const connections: RecordEventData = {
      ...deleted,
      record: {
        ...deleted.record,
        fields: [],
        links: [],
        assignments: [{ change: 'added', user: { id: 'u', name: 'Ada' } }],
        identities: [{ change: 'removed', kind: 'email', value: 'ada@example.com' }],
      },
    };
    expect(changedFieldIdsOf(connections)).toEqual([ASSIGNMENTS_CHANGED, IDENTITIES_CHANGED]);
    expect(changedFieldIdsOf({ ...connections, record: { ...connections.record, identities: [] } })).toEqual([
      ASSIGNMENTS_CHANGED,
    ]);
  });
});
