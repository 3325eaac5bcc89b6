import { deliveryIdRange, isWholeId, shortId } from './delivery-ids';

describe('deliveryIdRange', () => {
  it('covers every id that starts with the short id', () => {
    expect(deliveryIdRange('1a2b3c4d')).toEqual({
      from: '1a2b3c4d-0000-0000-0000-000000000000',
      to: '1a2b3c4d-ffff-ffff-ffff-ffffffffffff',
    });
    expect(deliveryIdRange(' 1A2B3C4D5E ')).toEqual({
      from: '1a2b3c4d-5e00-0000-0000-000000000000',
      to: '1a2b3c4d-5eff-ffff-ffff-ffffffffffff',
    });
  });

  it('takes the start of the usual form with its hyphens, and a whole id as itself', () => {
    expect(deliveryIdRange('1a2b3c4d-5e')).toEqual(deliveryIdRange('1a2b3c4d5e'));
    expect(deliveryIdRange('1a2b3c4d-')).toEqual(deliveryIdRange('1a2b3c4d'));
    const id = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
    expect(deliveryIdRange(id)).toEqual({ from: id, to: id });
    expect(deliveryIdRange(id.toUpperCase())).toEqual({ from: id, to: id });
    expect(deliveryIdRange(id.replaceAll('-', ''))).toEqual({ from: id, to: id });
  });

  it('refuses fewer than 8 hex digits, other characters, misplaced hyphens and more than an id', () => {
    for (const text of [
      '',
      '1a2b3c4',
      '1a2b-3c4d',
      '1a2b3c4d--5e',
      '1a2b3c4g',
      'record.created',
      `${'a'.repeat(33)}`,
      '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d0',
    ]) {
      expect([text, deliveryIdRange(text)]).toEqual([text, null]);
    }
  });
});

describe('whole and short ids', () => {
  it('tells a whole id and shows the first 8 hex digits', () => {
    expect(isWholeId('1A2B3C4D-5e6f-4a1b-8c2d-3e4f5a6b7c8d')).toBe(true);
    expect(isWholeId('1a2b3c4d')).toBe(false);
    expect(isWholeId('1a2b3c4d5e6f4a1b8c2d3e4f5a6b7c8d')).toBe(false);
    expect(shortId('1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d')).toBe('1a2b3c4d');
  });
});
