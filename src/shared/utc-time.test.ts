import { DAY_MS, HOUR_MS, startOfUtc } from './utc-time';

describe('startOfUtc', () => {
  it('floors to the UTC hour or day, whatever the zone it was written in', () => {
    const time = new Date('2026-11-26T19:42:07.123+05:30'); // 14:12:07.123 UTC
    expect(new Date(startOfUtc(time, HOUR_MS)).toISOString()).toBe('2026-11-26T14:00:00.000Z');
    expect(new Date(startOfUtc(time, DAY_MS)).toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('keeps a time already on the boundary', () => {
    expect(startOfUtc(new Date('2026-11-26T14:00:00.000Z'), HOUR_MS)).toBe(
      Date.parse('2026-11-26T14:00:00Z'),
    );
  });
});
