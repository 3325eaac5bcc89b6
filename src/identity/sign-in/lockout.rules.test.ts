import { clientAddressKey, lockSeconds } from './lockout.rules';

const rule = { failures: 5, firstLockSeconds: 60, maxLockSeconds: 900 };

describe('lockSeconds', () => {
  it('locks nothing before the threshold, then doubles from the first lock', () => {
    expect([1, 2, 3, 4].map((attempt) => lockSeconds(attempt, rule))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((attempt) => lockSeconds(attempt, rule))).toEqual([60, 120, 240, 480]);
  });

  it('never locks longer than the cap, however many failures', () => {
    expect(lockSeconds(9, rule)).toBe(900);
    expect(lockSeconds(10_000, rule)).toBe(900);
    expect(lockSeconds(Number.MAX_SAFE_INTEGER, rule)).toBe(900);
  });
});

describe('clientAddressKey', () => {
  it('keeps an IPv4 address, also when IPv4-mapped', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one', () => {
    const key = clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::1')).toBe(key);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(key);
  });

  it('counts anything else as itself', () => {
    expect(clientAddressKey('')).toBe('');
    expect(clientAddressKey('not an address')).toBe('not an address');
  });
});
