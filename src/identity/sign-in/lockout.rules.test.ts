import { lockSeconds } from './lockout.rules';

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
