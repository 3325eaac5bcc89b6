import { expiryDateRange, isExpired, quickKeyExpiry, standardKeyExpiry } from './api-key.rules';

const now = new Date('2026-03-10T15:30:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('standardKeyExpiry', () => {
  it('defaults to never', () => {
    expect(standardKeyExpiry(undefined, now)).toBeNull();
    expect(standardKeyExpiry(null, now)).toBeNull();
    expect(standardKeyExpiry('', now)).toBeNull();
  });

  it('accepts a date 1 to 365 days after today, expiring at the end of that day (UTC without a zone)', () => {
    expect(standardKeyExpiry('2026-03-11', now)).toEqual(new Date('2026-03-11T23:59:59.999Z'));
    expect(standardKeyExpiry('2027-03-10', now)).toEqual(new Date('2027-03-10T23:59:59.999Z'));
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

/** Issue 10, hole 8: a picked date never gives less than a day, in the person's own time zone. */
describe('standardKeyExpiry in a time zone', () => {
  const refusedWith = (customCode: string, path = ['expiresAt']) =>
    expect.objectContaining({
      kind: 'validation',
      issues: [expect.objectContaining({ customCode, path })],
    });

  it('makes tomorrow, picked at 23:59 in Berlin, last to the end of tomorrow there (24 h later)', () => {
    const lateInBerlin = new Date('2026-03-10T22:59:00.000Z'); // 23:59 CET
    const expiresAt = standardKeyExpiry('2026-03-11', lateInBerlin, 'Europe/Berlin')!;
    expect(expiresAt).toEqual(new Date('2026-03-11T22:59:59.999Z')); // 23:59:59.999 CET
    expect(expiresAt.getTime() - lateInBerlin.getTime()).toBeGreaterThanOrEqual(DAY);
    // The same click read as a UTC date gave a key that expired about an hour later.
    expect(expiryDateRange(lateInBerlin, 'Europe/Berlin')).toEqual({ min: '2026-03-11', max: '2027-03-10' });
  });

  it('reads the date in the zone: in Los Angeles “today” is still March 10 when UTC has March 11', () => {
    const evening = new Date('2026-03-11T05:00:00.000Z'); // 22:00 PDT, March 10
    expect(standardKeyExpiry('2026-03-11', evening, 'America/Los_Angeles')).toEqual(
      new Date('2026-03-12T06:59:59.999Z'),
    );
    expect(() => standardKeyExpiry('2026-03-10', evening, 'America/Los_Angeles')).toThrow(
      refusedWith('apiKeyExpiryTooSoon'),
    );
  });

  it('ends the day on its last instant across a DST change', () => {
    // Berlin moves to summer time on 2026-03-29: that day has 23 hours.
    expect(standardKeyExpiry('2026-03-29', now, 'Europe/Berlin')).toEqual(
      new Date('2026-03-29T21:59:59.999Z'),
    );
  });

  it('accepts exactly 365 days ahead and refuses 366, in the zone', () => {
    const tokyoNoon = new Date('2026-03-10T03:00:00.000Z'); // 12:00 JST, March 10
    expect(standardKeyExpiry('2027-03-10', tokyoNoon, 'Asia/Tokyo')).toEqual(
      new Date('2027-03-10T14:59:59.999Z'),
    );
    expect(() => standardKeyExpiry('2027-03-11', tokyoNoon, 'Asia/Tokyo')).toThrow(
      refusedWith('apiKeyExpiryTooLate'),
    );
  });

  it('refuses an exact time just under 24 h ahead, accepts 24 h and 365 days, refuses 365 days and 1 ms', () => {
    expect(() => standardKeyExpiry(new Date(now.getTime() + DAY - 1).toISOString(), now)).toThrow(
      refusedWith('apiKeyExpiryTooSoon'),
    );
    expect(() => standardKeyExpiry(new Date(now.getTime() + 23 * 60 * 60 * 1000).toISOString(), now)).toThrow(
      refusedWith('apiKeyExpiryTooSoon'),
    );
    expect(standardKeyExpiry(new Date(now.getTime() + DAY).toISOString(), now)).toEqual(
      new Date(now.getTime() + DAY),
    );
    expect(standardKeyExpiry(new Date(now.getTime() + 365 * DAY).toISOString(), now)).toEqual(
      new Date(now.getTime() + 365 * DAY),
    );
    expect(() => standardKeyExpiry(new Date(now.getTime() + 365 * DAY + 1).toISOString(), now)).toThrow(
      refusedWith('apiKeyExpiryTooLate'),
    );
  });

  it('refuses an unknown time zone and an impossible date', () => {
    expect(() => standardKeyExpiry('2026-04-01', now, 'Mars/Olympus')).toThrow(
      refusedWith('apiKeyTimeZoneInvalid', ['timeZone']),
    );
    expect(() => standardKeyExpiry('2026-02-30', now, 'UTC')).toThrow(refusedWith('apiKeyExpiryInvalid'));
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
