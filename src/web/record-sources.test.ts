import { describe, expect, it } from '@jest/globals';
import type { Field, WebhookView } from './api';
import {
  MASKED_VALUE,
  parseValue,
  recordSettingsIssues,
  recordSettingsOf,
  recordSettingsUpdate,
  recordSettingsWrite,
  type RecordSettingsDraft,
} from './record-sources';

const DEALS = '2f6b8d14-9c3e-4a71-8b5d-0e4f7a2c6d93';
const AMOUNT = '5d2e8c1b-3f4a-4e6b-8a9c-7b1d0e2f3a40';
const STAGE = '9e4c1a7b-2d5f-4b83-a6e0-3c8f1d7b5a29';
const trigger = {
  query: {
    typeId: DEALS,
    search: 'renewal',
    filters: [
      { fieldId: STAGE, op: 'in' as const, value: ['Won', 'Lost'] },
      { fieldId: AMOUNT, op: 'gt' as const, value: 1000 },
      { fieldId: AMOUNT, op: 'isNotEmpty' as const },
    ],
  },
  changedFieldIds: [AMOUNT],
};
const webhookWith = (settings: Partial<Pick<WebhookView, 'recordTrigger' | 'recordSources'>>) =>
  ({
    recordTrigger: settings.recordTrigger ?? null,
    recordSources: settings.recordSources ?? null,
  }) as WebhookView;

describe('record settings of the webhook dialog', () => {
  it('a saved trigger or list reads back to the very write it came from', () => {
    const single = recordSettingsOf(webhookWith({ recordTrigger: trigger }));
    expect(recordSettingsWrite(single)).toEqual({ recordTrigger: trigger, recordSources: null });
    const sources = [trigger, { query: { typeId: DEALS }, events: ['record.updated' as const] }];
    const several = recordSettingsOf(webhookWith({ recordSources: sources }));
    expect(recordSettingsWrite(several)).toEqual({ recordTrigger: null, recordSources: sources });
  });

  it('sends nothing when nothing changed, and only the field that changed otherwise', () => {
    const initial = recordSettingsOf(webhookWith({ recordTrigger: trigger }));
    expect(recordSettingsUpdate(initial, structuredClone(initial))).toBeUndefined();
    const searched: RecordSettingsDraft = {
      ...initial,
      sources: [{ ...initial.sources[0]!, search: 'acme' }],
    };
    expect(recordSettingsUpdate(initial, searched)).toEqual({
      recordTrigger: { ...trigger, query: { ...trigger.query, search: 'acme' } },
    });
    const several: RecordSettingsDraft = { several: true, sources: [initial.sources[0]!] };
    expect(recordSettingsUpdate(initial, several)).toEqual({ recordTrigger: null, recordSources: [trigger] });
  });

  it('leaves masks on fields the viewer cannot read to the server, and judges the rest', () => {
    const field = (id: string, name: string, kind: Field['kind'], restricted: boolean) =>
      ({ id, typeId: DEALS, name, kind, config: {}, position: 0, restricted }) as unknown as Field;
    const fields = [field(STAGE, 'Stage', 'text', false), field(AMOUNT, 'Amount', 'number', true)];
    const asRead = {
      query: {
        typeId: DEALS,
        filters: [
          { fieldId: AMOUNT, op: 'gt' as const, value: MASKED_VALUE },
          { fieldId: STAGE, op: 'gt' as const, value: 'x' },
        ],
      },
      changedFieldIds: [MASKED_VALUE, STAGE],
    };
    const draft = recordSettingsOf(webhookWith({ recordTrigger: asRead }));
    const issues = recordSettingsIssues(draft, () => ({ name: 'Deals', fields }), ['record.updated']);
    expect(issues.map((issue) => issue.path.join('.'))).toEqual(['recordTrigger.query.filters.1.op']);
  });

  it('reads a typed value as the kind stores it', () => {
    expect(parseValue('1000', 'gt', 'number')).toBe(1000);
    expect(parseValue('ten', 'gt', 'number')).toBe('ten'); // refused by the filter rule, as by the server
    expect(parseValue('true', 'eq', 'boolean')).toBe(true);
    expect(parseValue('Won, Lost', 'in', 'select')).toEqual(['Won', 'Lost']);
    expect(parseValue('anything', 'isEmpty', 'text')).toBeUndefined();
  });
});
