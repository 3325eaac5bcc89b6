import { formatSuccessRate, healthWindows, successRate, windowHealth } from './webhook-health';

describe('webhook health', () => {
  it('rates only finished deliveries, and has no rate without any', () => {
    expect(successRate({ delivered: 3, failed: 1, retrying: 0, inFlight: 5 })).toBe(0.75);
    expect(successRate({ delivered: 0, failed: 0, retrying: 0, inFlight: 2 })).toBeNull();
    expect(windowHealth({ delivered: 1, failed: 0, retrying: 0, inFlight: 0 })).toEqual({
      delivered: 1,
      failed: 0,
      retrying: 0,
      inFlight: 0,
      successRate: 1,
    });
  });

  it('leaves retrying deliveries out of the rate until they finish', () => {
    expect(successRate({ delivered: 3, failed: 1, retrying: 4, inFlight: 0 })).toBe(0.75);
    expect(successRate({ delivered: 0, failed: 0, retrying: 2, inFlight: 0 })).toBeNull();
  });

  it('never shows 100 % while a delivery failed', () => {
    expect(formatSuccessRate(999 / 1000)).toBe('99.9 %');
    expect(formatSuccessRate(9999 / 10000)).toBe('99.9 %');
    expect(formatSuccessRate(1)).toBe('100 %');
    expect(formatSuccessRate(0)).toBe('0 %');
    expect(formatSuccessRate(null)).toBe('—');
  });

  it('counts whole UTC hours: the current one and the 23 (or 167) before it', () => {
    const windows = healthWindows(new Date('2026-03-04T10:59:59.999Z'));
    expect(windows.recent.toISOString()).toBe('2026-03-03T11:00:00.000Z');
    expect(windows.since.toISOString()).toBe('2026-02-25T11:00:00.000Z');
    expect(healthWindows(new Date('2026-03-04T10:00:00.000Z'))).toEqual(windows);
  });
});
