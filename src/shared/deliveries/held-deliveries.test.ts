import { describeHeld, HELD_COUNTED_UP_TO, type HeldSnapshot } from './held-deliveries';

const snapshot = (count: number, extra: Partial<HeldSnapshot> = {}): HeldSnapshot => ({
  count,
  oldest: Array.from({ length: Math.min(count, 7) }, (_, i) => `d${i + 1}`),
  since: count ? '2026-11-28T15:02:11.000Z' : null,
  endpoint: { state: 'failing', reason: '503 Service Unavailable', since: '2026-11-28T15:00:00.000Z' },
  readAt: '2026-11-28T16:00:00.000Z',
  ...extra,
});

describe('describeHeld (the held-deliveries workflow in the Web UI)', () => {
  it('says how many wait, since when, why, the oldest first, and how to act', () => {
    const sut = describeHeld(snapshot(1234));
    expect(sut).toContain('**1,234 deliveries held** since 2026-11-28T15:02:11.000Z');
    expect(sut).toContain('Endpoint **failing** since 2026-11-28T15:00:00.000Z: 503 Service Unavailable.');
    expect(sut).toContain('Oldest first: d1, d2, d3, d4, d5, …');
    expect(sut).toContain('`findHeld`');
    expect(sut).toContain('`releaseNow`');
  });

  it('says one delivery, a capped count with a plus, an endpoint not stored yet, and none held', () => {
    expect(describeHeld(snapshot(1))).toContain('**1 delivery held**');
    expect(describeHeld(snapshot(1))).toContain('Oldest first: d1\n');
    expect(describeHeld(snapshot(HELD_COUNTED_UP_TO))).toContain('**1,000,000+ deliveries held**');
    expect(describeHeld(snapshot(3, { endpoint: null }))).toContain('Endpoint state not stored yet.');
    expect(describeHeld(snapshot(0))).toBe('**No deliveries held** (read 2026-11-28T16:00:00.000Z).');
  });
});
