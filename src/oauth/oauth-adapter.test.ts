import { holdsNul } from './oauth-adapter';

describe('holdsNul: what the OAuth store cannot keep (PostgreSQL refuses NUL in JSON)', () => {
  it('finds a NUL in a string, a key or an array item, at any depth', () => {
    expect(holdsNul('a\u0000')).toBe(true);
    expect(holdsNul({ params: { state: 'x\u0000y' } })).toBe(true);
    expect(holdsNul({ params: { ['k\u0000']: 'v' } })).toBe(true);
    expect(holdsNul({ scopes: ['mcp', '\u0000'] })).toBe(true);
  });

  it('finds none in ordinary payloads, other controls and numbers included', () => {
    expect(
      holdsNul({ params: { state: 'abc', scope: 'mcp offline_access' }, exp: 1, ok: true, none: null }),
    ).toBe(false);
    expect(holdsNul({ note: 'tab\tand\nline' })).toBe(false);
    expect(holdsNul('\\u0000 written out')).toBe(false);
  });
});
