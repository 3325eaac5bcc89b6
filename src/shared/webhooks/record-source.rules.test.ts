import type { QueryField } from '../records/record-query.rules';
import { recordSourceIssues, recordSourcesSchema, RECORD_SOURCES_MAX } from './record-source.rules';

const typeId = '2f6b8d14-9c3e-4a71-8b5d-0e4f7a2c6d93';
const field = (id: string, name: string, kind: QueryField['kind'], options?: string[]): QueryField => ({
  id,
  typeId,
  name,
  kind,
  config: options ? { options } : {},
});
const NAME = field('0b6a6f4e-7a0f-4c2a-9d55-1f3c2b8e4a10', 'Name', 'text');
const AMOUNT = field('5d2e8c1b-3f4a-4e6b-8a9c-7b1d0e2f3a40', 'Amount', 'number');
const STAGE = field('9e4c1a7b-2d5f-4b83-a6e0-3c8f1d7b5a29', 'Stage', 'select', ['Lead', 'Won']);
const deals = { name: 'Deals', fields: [NAME, AMOUNT, STAGE] };
const UNKNOWN = 'a5c8e1f3-6d2b-4a97-8e4c-1f7b3d9a0c56';

describe('recordSourceIssues', () => {
  it('accepts a source whose filters fit their fields and whose changed fields exist', () => {
    const source = {
      query: {
        typeId,
        search: 'acme',
        filters: [
          { fieldId: STAGE.id, op: 'eq' as const, value: 'Won' },
          { fieldId: AMOUNT.id, op: 'gt' as const, value: 1000 },
        ],
      },
      changedFieldIds: [AMOUNT.id],
      events: ['record.updated'],
    };
    expect(recordSourceIssues(source, deals, ['recordSources', 1], ['record.updated'])).toEqual([]);
  });

  it('names each problem by its path, with the customCode the server answers', () => {
    const source = {
      query: {
        typeId,
        filters: [
          { fieldId: STAGE.id, op: 'eq' as const, value: 'Closed' },
          { fieldId: AMOUNT.id, op: 'contains' as const, value: 'x' },
          { fieldId: UNKNOWN, op: 'isEmpty' as const },
        ],
      },
      changedFieldIds: [NAME.id, UNKNOWN],
      events: ['record.deleted'],
    };
    const issues = recordSourceIssues(source, deals, ['recordTrigger'], ['record.updated']);
    expect(issues.map((issue) => [issue.path.join('.'), issue.customCode])).toEqual([
      ['recordTrigger.query.filters.0.value', 'queryValueInvalid'],
      ['recordTrigger.query.filters.1.op', 'queryOperatorNotAllowed'],
      ['recordTrigger.query.filters.2.fieldId', 'queryUnknownField'],
      ['recordTrigger.changedFieldIds.1', 'webhookChangedFieldUnknown'],
      ['recordTrigger.events.0', 'webhookSourceEventNotSubscribed'],
    ]);
    expect(issues[3]!.message).toBe(`No field ${UNKNOWN} in Deals.`);
  });

  it('refuses filtering on or watching a field the record owner cannot read', () => {
    const source = {
      query: { typeId, filters: [{ fieldId: AMOUNT.id, op: 'gt' as const, value: 5 }] },
      changedFieldIds: [AMOUNT.id, NAME.id],
    };
    const issues = recordSourceIssues(source, deals, ['recordTrigger'], [], (id) => id === AMOUNT.id);
    expect(issues.map((issue) => [issue.path.join('.'), issue.customCode])).toEqual([
      ['recordTrigger.query.filters.0.fieldId', 'webhookFieldRestricted'],
      ['recordTrigger.changedFieldIds.0', 'webhookFieldRestricted'],
    ]);
  });
});

describe('recordSourcesSchema', () => {
  it(`takes up to ${RECORD_SOURCES_MAX} sources and refuses one more with webhookRecordSourcesTooMany`, () => {
    const sources = (count: number) => Array.from({ length: count }, () => ({ query: { typeId } }));
    expect(recordSourcesSchema.safeParse(sources(RECORD_SOURCES_MAX)).success).toBe(true);
    const refused = recordSourcesSchema.safeParse(sources(RECORD_SOURCES_MAX + 1));
    expect(refused.error?.issues.map((issue) => (issue as { params?: unknown }).params)).toEqual([
      { customCode: 'webhookRecordSourcesTooMany' },
    ]);
  });
});
