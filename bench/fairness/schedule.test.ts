// The fairness bench's check of the retry schedule: early, on time and late retries.
import { checkSchedule, specPauseMs, type SendRow } from './schedule';

const send = (
  deliveryId: string,
  attempt: number,
  startedAt: number,
  durationMs: number | null,
  n = 1,
): SendRow => ({
  deliveryId,
  attempt,
  send: n,
  startedAt,
  durationMs,
});

describe('checkSchedule', () => {
  it('takes the pause from when the previous attempt ended', () => {
    const result = checkSchedule([
      send('d', 1, 0, 5000),
      send('d', 2, 15_010, 5000), // 10 s after the 5 s timeout ended: on time
      send('d', 3, 40_000, 5000), // 20 s after 20 010: on time (−10 ms)
    ]);
    expect(result).toMatchObject({ retries: 2, early: 0, onTime: 2, late: 0 });
    expect(result.firstRetryOffset.p50).toBe(10);
  });

  it('counts a retry that starts before its pause is over as early, and one that waited as late', () => {
    const result = checkSchedule([
      send('a', 1, 0, 100),
      send('a', 2, 9_000, 100), // due at 10 100
      send('b', 1, 0, 5000),
      send('b', 2, 30_000, 5000), // due at 15 000: waited for capacity
    ]);
    expect(result).toMatchObject({ retries: 2, early: 1, onTime: 0, late: 1 });
  });

  it('ignores a re-run of the same attempt and a send with no recorded end', () => {
    const result = checkSchedule([
      send('d', 1, 0, null, 1),
      send('d', 1, 12_000, 5000, 2),
      send('d', 2, 27_000, null),
      send('d', 3, 99_000, 5000),
    ]);
    expect(result).toMatchObject({ retries: 1, early: 0, onTime: 1 });
    expect(result.attemptsMade.max).toBe(3);
  });

  it('doubles the pause up to the one-hour cap (docs/deliveries.md#what-a-receiver-gets)', () => {
    expect([1, 2, 3, 9].map(specPauseMs)).toEqual([10_000, 20_000, 40_000, 2_560_000]);
    expect(specPauseMs(20)).toBe(3_600_000);
  });
});
