import { fillBuckets, statsWindow } from './delivery-stats';

describe('delivery stats buckets', () => {
  const now = new Date('2026-03-10T14:25:00.000Z');

  it('has 24 hourly buckets ending with the current hour', () => {
    const sut = statsWindow('24h', now);
    expect(sut.unit).toBe('hour');
    expect(sut.starts).toHaveLength(24);
    expect(sut.from.toISOString()).toBe('2026-03-09T15:00:00.000Z');
    expect(sut.starts.at(-1)!.toISOString()).toBe('2026-03-10T14:00:00.000Z');
    expect(sut.to.toISOString()).toBe('2026-03-10T15:00:00.000Z');
  });

  it('has daily buckets on UTC days for 7 and 30 days', () => {
    const week = statsWindow('7d', now);
    expect(week.unit).toBe('day');
    expect(week.starts.map((start) => start.toISOString().slice(0, 10))).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    expect(week.to.toISOString()).toBe('2026-03-11T00:00:00.000Z');
    const month = statsWindow('30d', now);
    expect(month.starts).toHaveLength(30);
    expect(month.from.toISOString()).toBe('2026-02-09T00:00:00.000Z');
  });

  it('starts a bucket at its first instant, exactly on a boundary', () => {
    const sut = statsWindow('24h', new Date('2026-03-10T14:00:00.000Z'));
    expect(sut.starts.at(-1)!.toISOString()).toBe('2026-03-10T14:00:00.000Z');
  });

  it('fills empty buckets with zeros, drops counts outside the window and totals the rest', () => {
    const window = statsWindow('24h', now);
    const sut = fillBuckets(
      window,
      [
        { start: new Date('2026-03-10T14:00:00Z'), delivered: 3, failed: 1, retrying: 2, inFlight: 2 },
        { start: new Date('2026-03-10T09:00:00Z'), delivered: 0, failed: 4, retrying: 0, inFlight: 0 },
        { start: new Date('2026-03-08T09:00:00Z'), delivered: 50, failed: 0, retrying: 1, inFlight: 0 },
      ],
      null,
    );
    expect(sut.buckets).toHaveLength(24);
    expect(sut.buckets.at(-1)).toEqual({
      start: '2026-03-10T14:00:00.000Z',
      delivered: 3,
      failed: 1,
      retrying: 2,
      inFlight: 2,
    });
    expect(sut.buckets.find((b) => b.start === '2026-03-10T09:00:00.000Z')).toMatchObject({ failed: 4 });
    expect(sut.buckets.filter((b) => b.delivered + b.failed + b.inFlight === 0)).toHaveLength(22);
    // Retrying deliveries are not finished: the rate is over delivered and failed for good.
    expect(sut.totals).toEqual({ delivered: 3, failed: 5, retrying: 2, inFlight: 2, successRate: 3 / 8 });
    expect(sut).toMatchObject({
      range: '24h',
      bucket: 'hour',
      from: '2026-03-09T15:00:00.000Z',
      to: '2026-03-10T15:00:00.000Z',
      webhookId: null,
    });
  });

  it('has no success rate when nothing finished', () => {
    const sut = fillBuckets(statsWindow('7d', now), [], 'a-webhook');
    expect(sut.totals).toEqual({ delivered: 0, failed: 0, retrying: 0, inFlight: 0, successRate: null });
    expect(
      sut.buckets.every((b) => b.delivered === 0 && b.failed === 0 && b.retrying === 0 && b.inFlight === 0),
    ).toBe(true);
    // Retrying ones have not finished either.
    const retryingOnly = fillBuckets(
      statsWindow('24h', now),
      [{ start: new Date('2026-03-10T14:00:00Z'), delivered: 0, failed: 0, retrying: 3, inFlight: 0 }],
      null,
    );
    expect(retryingOnly.totals).toEqual({
      delivered: 0,
      failed: 0,
      retrying: 3,
      inFlight: 0,
      successRate: null,
    });
  });
});
