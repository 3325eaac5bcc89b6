import { attemptDetailsCutoff } from './attempt-details-rule';

describe('attemptDetailsCutoff', () => {
  const now = new Date('2025-04-03T10:15:30.250Z');

  it('is the window’s number of whole days before now, to the millisecond', () => {
    expect(attemptDetailsCutoff(now, 30)).toEqual(new Date('2025-03-04T10:15:30.250Z'));
    expect(attemptDetailsCutoff(now, 1)).toEqual(new Date('2025-04-02T10:15:30.250Z'));
  });

  it('counts days of 24 hours across a change of daylight saving time', () => {
    // Europe moved its clocks on 2025-03-30; the cutoff is UTC arithmetic, 7 × 24 h back.
    expect(attemptDetailsCutoff(new Date('2025-04-02T00:00:00Z'), 7)).toEqual(
      new Date('2025-03-26T00:00:00Z'),
    );
  });

  it('refuses a window that would drop what was just sent', () => {
    for (const days of [0, -1, 1.5, Number.NaN])
      expect(() => attemptDetailsCutoff(now, days)).toThrow(RangeError);
  });
});
