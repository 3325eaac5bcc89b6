import { isExpired, quickKeyExpiry, standardKeyExpiry } from './api-key.rules';

const now = new Date('2026-03-10T15:30:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('standardKeyExpiry', () => {
  it('defaults to never', () => {
    expect(standardKeyExpiry(undefined, now)).toBeNull();
    expect(standardKeyExpiry(null, now)).toBeNull();
    expect(standardKeyExpiry('', now)).toBeNull();
  });

  it('accepts a date 1 to 365 days after today, expiring at the start of that day (UTC)', () => {
    expect(standardKeyExpiry('2026-03-11', now)).toEqual(new Date('2026-03-11T00:00:00.000Z'));
    expect(standardKeyExpiry('2027-03-10', now)).toEqual(new Date('2027-03-10T00:00:00.000Z'));
  });

  it.each([
    ['2026-03-10', 'apiKeyExpiryTooSoon'],
    ['2026-03-01', 'apiKeyExpiryTooSoon'],
    ['2027-03-11', 'apiKeyExpiryTooLate'],
    ['not a date', 'apiKeyExpiryInvalid'],
  ])('refuses the date %s with %s', (input, customCode) => {
    expect(() => standardKeyExpiry(input, now)).toThrow(
      expect.objectContaining({
        kind: 'validation',
        issues: [expect.objectContaining({ customCode, path: ['expiresAt'] })],
      }),
    );
  });

  it('accepts exact times between 1 and 365 days ahead, and refuses others', () => {
    expect(standardKeyExpiry(new Date(now.getTime() + DAY).toISOString(), now)).toEqual(
      new Date(now.getTime() + DAY),
    );
    expect(() => standardKeyExpiry(new Date(now.getTime() + DAY - 1000).toISOString(), now)).toThrow();
    expect(standardKeyExpiry(new Date(now.getTime() + 365 * DAY).toISOString(), now)).not.toBeNull();
    expect(() => standardKeyExpiry(new Date(now.getTime() + 365 * DAY + 1000).toISOString(), now)).toThrow();
  });
});

describe('quickKeyExpiry', () => {
  it('is exactly 365 days after creation', () => {
    expect(quickKeyExpiry(now).getTime() - now.getTime()).toBe(365 * DAY);
  });
});

describe('isExpired', () => {
  it('never expires without a date, and expires from the expiry instant on', () => {
    expect(isExpired(null, now)).toBe(false);
    expect(isExpired(new Date(now.getTime() + 1), now)).toBe(false);
    expect(isExpired(now, now)).toBe(true);
  });
});
