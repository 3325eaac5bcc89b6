import { canonicalId, canonicalUuid } from './id-spelling';

describe('one spelling of an id', () => {
  const lower = '0b5e2c1a-7d3f-4a8b-9c2d-1e2f3a4b5c6d';

  it('lowers a UUID written in upper or mixed case', () => {
    expect(canonicalId(lower.toUpperCase())).toBe(lower);
    expect(canonicalId('0B5e2C1a-7D3f-4A8b-9C2d-1E2f3A4b5C6d')).toBe(lower);
    expect(canonicalId(lower)).toBe(lower);
  });

  it('leaves a name, or anything else not shaped as a UUID, as written', () => {
    expect(canonicalId('Amount')).toBe('Amount');
    expect(canonicalId(` ${lower.toUpperCase()}`)).toBe(` ${lower.toUpperCase()}`);
    expect(canonicalId('********')).toBe('********');
  });

  it('parses a request UUID into its lower-case spelling, and refuses what is not one', () => {
    expect(canonicalUuid().parse(lower.toUpperCase())).toBe(lower);
    expect(canonicalUuid().safeParse('Amount').success).toBe(false);
  });
});
