import { AppError } from '../app-error';
import {
  MASKED_VALUE,
  maskRecordSettings,
  maskSource,
  restoreMaskedSettings,
  type FieldReadable,
} from './record-source-mask.rules';
import type { RecordSource, RecordTrigger } from './record-source.rules';

const DEALS = '2f6b8d14-9c3e-4a71-8b5d-0e4f7a2c6d93';
const CONTACTS = '7c1e4b9a-5d3f-4a28-9e6b-2f8d1c0a7e54';
const STAGE = '9e4c1a7b-2d5f-4b83-a6e0-3c8f1d7b5a29';
const AMOUNT = '5d2e8c1b-3f4a-4e6b-8a9c-7b1d0e2f3a40';
const WEIGHTED = '1a3c5e7f-9b2d-4f68-8a0c-4e6f8a1b3c5d';
const PROBABILITY = '6b8d0f2a-4c6e-4a91-b3d5-7f9a1c3e5b70';

/** A reader whose role hides Amount (and the formula computed from it). */
const noAmount: FieldReadable = (_typeId, fieldId) => fieldId !== AMOUNT && fieldId !== WEIGHTED;
const everything: FieldReadable = () => true;
const noDeals: FieldReadable = (typeId) => typeId !== DEALS;

const trigger: RecordTrigger = {
  query: {
    typeId: DEALS,
    search: 'renewal',
    filters: [
      { fieldId: STAGE, op: 'eq', value: 'Won' },
      { fieldId: AMOUNT, op: 'gt', value: 31337 },
      { fieldId: WEIGHTED, op: 'in', value: [31337, 1] },
      { fieldId: AMOUNT, op: 'isNotEmpty' },
    ],
  },
  changedFieldIds: [AMOUNT, STAGE, WEIGHTED],
};
const saved = { recordTrigger: trigger, recordSources: null };
const masked = maskSource(trigger, noAmount);

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return error.issues.map((issue) => [issue.path.join('.'), issue.customCode]);
  }
  throw new Error('not refused');
};

describe('maskSource', () => {
  it('shows the field and operator of a filter on a hidden field, not its value; hidden watched fields as the mask', () => {
    expect(masked).toEqual({
      query: {
        typeId: DEALS,
        search: 'renewal',
        filters: [
          { fieldId: STAGE, op: 'eq', value: 'Won' },
          { fieldId: AMOUNT, op: 'gt', value: MASKED_VALUE },
          { fieldId: WEIGHTED, op: 'in', value: MASKED_VALUE },
          { fieldId: AMOUNT, op: 'isNotEmpty' },
        ],
      },
      changedFieldIds: [MASKED_VALUE, STAGE, MASKED_VALUE],
    });
    expect(JSON.stringify(masked)).not.toContain('31337');
    expect(trigger.query.filters![1]!.value).toBe(31337); // the saved source is untouched
  });

  it('hides nothing from a reader who can read the fields; everything of a type the reader cannot read', () => {
    expect(maskSource(trigger, everything)).toEqual(trigger);
    const unreadable = maskSource(trigger, noDeals);
    expect(unreadable.query.filters!.map((filter) => filter.value)).toEqual([
      MASKED_VALUE,
      MASKED_VALUE,
      MASKED_VALUE,
      undefined,
    ]);
    expect(unreadable.changedFieldIds).toEqual([MASKED_VALUE, MASKED_VALUE, MASKED_VALUE]);
  });

  it('masks each of several sources, and keeps absent parts absent', () => {
    const bare: RecordSource = { query: { typeId: CONTACTS }, events: ['record.created'] };
    expect(maskRecordSettings({ recordTrigger: null, recordSources: [trigger, bare] }, noAmount)).toEqual({
      recordTrigger: null,
      recordSources: [masked, bare],
    });
    expect(maskRecordSettings({ recordTrigger: null, recordSources: null }, noAmount)).toEqual({
      recordTrigger: null,
      recordSources: null,
    });
  });
});

describe('restoreMaskedSettings', () => {
  it('gives back the saved values for the masks as read: the round trip changes nothing', () => {
    expect(restoreMaskedSettings({ recordTrigger: masked, description: 'x' }, saved, noAmount)).toEqual({
      recordTrigger: trigger,
      description: 'x',
    });
    // The trigger made the first of several sources keeps its values, as does a list read as a list.
    expect(restoreMaskedSettings({ recordSources: [masked] }, saved, noAmount)).toEqual({
      recordSources: [trigger],
    });
    expect(
      restoreMaskedSettings({ recordSources: [masked] }, { recordSources: [trigger] }, noAmount),
    ).toEqual({ recordSources: [trigger] });
  });

  it('lets the reader drop masked filters and watched fields, and leaves other writes alone', () => {
    const fewer = {
      query: { ...masked.query, filters: masked.query.filters!.slice(0, 2) },
      changedFieldIds: [MASKED_VALUE, STAGE],
    };
    expect(restoreMaskedSettings({ recordTrigger: fewer }, saved, noAmount).recordTrigger).toEqual({
      query: { ...trigger.query, filters: trigger.query.filters!.slice(0, 2) },
      changedFieldIds: [AMOUNT, STAGE],
    });
    for (const input of [{}, { recordTrigger: null }, { recordSources: null }, { url: 'https://x.test' }]) {
      expect(restoreMaskedSettings(input, saved, noAmount)).toEqual(input);
    }
  });

  it('takes the mask as a plain value on a field the sender can read', () => {
    const literal = {
      query: { typeId: DEALS, filters: [{ fieldId: STAGE, op: 'eq' as const, value: MASKED_VALUE }] },
    };
    expect(restoreMaskedSettings({ recordTrigger: literal }, saved, noAmount).recordTrigger).toEqual(literal);
    // An Admin reads every value, so a masked filter value from an Admin is a value too (the
    // query rules then judge it); a masked watched field is never a field id.
    const filtersOnly = { ...masked, changedFieldIds: [STAGE] };
    expect(restoreMaskedSettings({ recordTrigger: filtersOnly }, saved, everything).recordTrigger).toEqual(
      filtersOnly,
    );
    expect(refusal(() => restoreMaskedSettings({ recordTrigger: masked }, saved, everything))).toEqual([
      ['recordTrigger.changedFieldIds.0', 'webhookMaskUnmatched'],
      ['recordTrigger.changedFieldIds.2', 'webhookMaskUnmatched'],
    ]);
  });

  it('refuses a mask moved to another field, operator, source or type, whatever the saved value', () => {
    const moved = (filter: { fieldId: string; op: 'gt' | 'lt' | 'in' }) =>
      refusal(() =>
        restoreMaskedSettings(
          { recordTrigger: { query: { typeId: DEALS, filters: [{ ...filter, value: MASKED_VALUE }] } } },
          saved,
          noAmount,
        ),
      );
    const at = ['recordTrigger.query.filters.0.value', 'webhookMaskUnmatched'];
    expect(moved({ fieldId: WEIGHTED, op: 'gt' })).toEqual([at]); // another hidden field
    expect(moved({ fieldId: AMOUNT, op: 'lt' })).toEqual([at]); // another operator
    expect(moved({ fieldId: AMOUNT, op: 'in' })).toEqual([at]);
    // Another type at the same place, another place, or a new webhook: nothing to stand for.
    const contacts = { ...masked, query: { ...masked.query, typeId: CONTACTS } };
    expect(refusal(() => restoreMaskedSettings({ recordTrigger: contacts }, saved, noAmount))).toHaveLength(
      4,
    );
    expect(
      refusal(() =>
        restoreMaskedSettings({ recordSources: [{ query: { typeId: DEALS } }, masked] }, saved, noAmount),
      ),
    ).toEqual([
      ['recordSources.1.query.filters.1.value', 'webhookMaskUnmatched'],
      ['recordSources.1.query.filters.2.value', 'webhookMaskUnmatched'],
      ['recordSources.1.changedFieldIds.0', 'webhookMaskUnmatched'],
      ['recordSources.1.changedFieldIds.2', 'webhookMaskUnmatched'],
    ]);
    const none = { recordTrigger: null, recordSources: null };
    expect(refusal(() => restoreMaskedSettings({ recordTrigger: masked }, none, noAmount))).toHaveLength(4);
  });

  it('refuses a mask used twice for one saved value, or more masked watched fields than were saved', () => {
    const twice = {
      query: {
        typeId: DEALS,
        filters: [
          { fieldId: AMOUNT, op: 'gt' as const, value: MASKED_VALUE },
          { fieldId: AMOUNT, op: 'gt' as const, value: MASKED_VALUE },
        ],
      },
      changedFieldIds: [MASKED_VALUE, MASKED_VALUE, MASKED_VALUE],
    };
    expect(refusal(() => restoreMaskedSettings({ recordTrigger: twice }, saved, noAmount))).toEqual([
      ['recordTrigger.query.filters.1.value', 'webhookMaskUnmatched'],
      ['recordTrigger.changedFieldIds.2', 'webhookMaskUnmatched'],
    ]);
  });

  it('never stands for a saved value the sender can read (nothing to keep hidden there)', () => {
    const readableSaved = {
      recordTrigger: {
        query: { typeId: DEALS, filters: [{ fieldId: PROBABILITY, op: 'gt' as const, value: 5 }] },
      },
      recordSources: null,
    };
    const sent = {
      query: { typeId: DEALS, filters: [{ fieldId: PROBABILITY, op: 'gt' as const, value: MASKED_VALUE }] },
    };
    expect(restoreMaskedSettings({ recordTrigger: sent }, readableSaved, noAmount).recordTrigger).toEqual(
      sent,
    );
  });
});
