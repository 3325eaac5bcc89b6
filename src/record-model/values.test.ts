import type { FieldDef } from './field-kinds';
import { sameStoredValue, toStoredValue, valueState } from './values';

const field = (kind: FieldDef['kind'], config: FieldDef['config'] = {}): FieldDef => ({
  id: 'f1',
  typeId: 't1',
  name: 'Field',
  kind,
  config,
  position: 0,
});

describe('toStoredValue', () => {
  it.each([
    ['text', 'Ada'],
    ['email', 'ada@example.com'],
    ['url', 'https://example.com/x'],
    ['number', 0],
    ['number', -12.5],
    ['date', '2026-02-28'],
    ['boolean', false],
  ] as const)('keeps a valid %s value %j', (kind, value) => {
    expect(toStoredValue(field(kind), value)).toEqual(value);
  });

  it('keeps a select option and a rich-text document', () => {
    expect(toStoredValue(field('select', { options: ['Won', 'Lost'] }), 'Won')).toBe('Won');
    const documentJson = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }],
    };
    expect(toStoredValue(field('richText'), { documentJson })).toEqual({ documentJson });
  });

  it('clears on null', () => {
    expect(toStoredValue(field('number'), null)).toBeNull();
  });

  it.each([
    ['text', 42],
    ['text', 'x'.repeat(10_001)],
    ['email', 'not-an-email'],
    ['url', 'mailto:a@b.c'],
    ['url', 'example.com'],
    ['number', '12'],
    ['number', Number.NaN],
    ['date', '2026-02-30'],
    ['date', '28/02/2026'],
    ['boolean', 'true'],
    ['richText', '<p>hi</p>'],
    ['richText', { documentJson: { type: 'paragraph' } }],
  ] as const)('refuses %s value %j with the field path', (kind, value) => {
    expect(() => toStoredValue(field(kind), value)).toThrow(
      expect.objectContaining({
        issues: [expect.objectContaining({ customCode: 'recordValueInvalid', path: ['values', 'f1'] })],
      }),
    );
  });

  it('refuses unknown select options, and writes to formula and link fields', () => {
    expect(() => toStoredValue(field('select', { options: ['Won'] }), 'Maybe')).toThrow();
    expect(() => toStoredValue(field('formula'), 3)).toThrow(
      expect.objectContaining({ issues: [expect.objectContaining({ customCode: 'recordFieldReadOnly' })] }),
    );
    expect(() => toStoredValue(field('link'), 'x')).toThrow();
  });
});

describe('valueState', () => {
  it('wraps values with their kind, and never turns missing into zero', () => {
    expect(valueState(field('number'), 0)).toEqual({ state: 'value', kind: 'number', value: 0 });
    expect(valueState(field('number'), undefined)).toEqual({ state: 'missing' });
    expect(valueState(field('text'), null)).toEqual({ state: 'missing' });
    expect(valueState(field('formula'), { $error: 'division by zero' })).toEqual({
      state: 'error',
      message: 'division by zero',
    });
  });
});

describe('helpers', () => {
  it('compares stored values structurally and treats undefined as null', () => {
    expect(sameStoredValue(undefined, null)).toBe(true);
    expect(sameStoredValue({ documentJson: { a: 1 } }, { documentJson: { a: 1 } })).toBe(true);
    expect(sameStoredValue(0, null)).toBe(false);
  });
});
