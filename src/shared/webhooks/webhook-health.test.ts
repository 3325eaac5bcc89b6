import { formatSuccessRate, successRate, windowHealth } from './webhook-health';

describe('webhook health', () => {
  it('rates only finished deliveries, and has no rate without any', () => {
    expect(successRate({ delivered: 3, failed: 1, inFlight: 5 })).toBe(0.75);
    expect(successRate({ delivered: 0, failed: 0, inFlight: 2 })).toBeNull();
    expect(windowHealth({ delivered: 1, failed: 0, inFlight: 0 })).toEqual({
      delivered: 1,
      failed: 0,
      inFlight: 0,
      successRate: 1,
    });
  });

  it('never shows 100 % while a delivery failed', () => {
    expect(formatSuccessRate(999 / 1000)).toBe('99.9 %');
    expect(formatSuccessRate(9999 / 10000)).toBe('99.9 %');
    expect(formatSuccessRate(1)).toBe('100 %');
    expect(formatSuccessRate(0)).toBe('0 %');
    expect(formatSuccessRate(null)).toBe('—');
  });
});
