import {
  legacySignatureSecret,
  previousSecretExpiry,
  previousSecretSigns,
  signingSecrets,
} from './secret-rotation';

const now = new Date('2025-12-02T13:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const HOUR = 60 * 60 * 1000;

describe('previousSecretExpiry', () => {
  it('keeps the replaced secret for the grace period, from now', () => {
    expect(previousSecretExpiry(true, 24, now)).toEqual(later(24 * HOUR));
    expect(previousSecretExpiry(true, 1, now)).toEqual(later(HOUR));
  });

  it('keeps nothing without a grace period or without a secret to keep', () => {
    expect(previousSecretExpiry(true, 0, now)).toBeNull();
    expect(previousSecretExpiry(false, 24, now)).toBeNull();
  });

  it.each([-1, 25, 1.5, Number.NaN])('refuses a grace period of %s hours', (hours) => {
    expect(() => previousSecretExpiry(true, hours, now)).toThrow(RangeError);
  });
});

describe('signingSecrets', () => {
  const previous = { secret: 'old', expiresAt: later(HOUR) };

  it('signs with the current secret, then the previous one while its grace lasts', () => {
    expect(signingSecrets('new', previous, now)).toEqual(['new', 'old']);
    expect(signingSecrets('new', previous, later(HOUR - 1))).toEqual(['new', 'old']);
  });

  it('drops the previous secret the moment its grace ends, whether or not the sweep ran', () => {
    expect(signingSecrets('new', previous, later(HOUR))).toEqual(['new']);
    expect(signingSecrets('new', previous, later(2 * HOUR))).toEqual(['new']);
    expect(previousSecretSigns(previous.expiresAt, later(HOUR))).toBe(false);
  });

  it('signs with nothing without a current secret, and with it alone without a previous one', () => {
    expect(signingSecrets(null, previous, now)).toEqual([]);
    expect(signingSecrets('new', null, now)).toEqual(['new']);
    expect(previousSecretSigns(null, now)).toBe(false);
  });
});

describe('legacySignatureSecret', () => {
  it('is the previous secret while a rotation’s grace lasts, then the current one', () => {
    const previous = { secret: 'old', expiresAt: later(HOUR) };
    expect(legacySignatureSecret(signingSecrets('new', previous, now))).toBe('old');
    expect(legacySignatureSecret(signingSecrets('new', previous, later(HOUR)))).toBe('new');
    expect(legacySignatureSecret(signingSecrets('new', null, now))).toBe('new');
    expect(legacySignatureSecret(signingSecrets(null, previous, now))).toBeUndefined();
  });
});
