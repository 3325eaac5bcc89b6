import { claimSendSlot, sendIntervalMs, sendWaitMs, SEND_WAIT_MIN_MS } from './send-rate';

describe('claimSendSlot', () => {
  it('lets the first request of a webhook leave at once', () => {
    expect(claimSendSlot(null, 1_000, 20)).toEqual({ sendAt: 1_000, nextAt: 1_050 });
  });

  it('spaces requests claimed together by the interval, in claim order', () => {
    let nextAt: number | null = null;
    const sendAts: number[] = [];
    for (let index = 0; index < 100; index++) {
      const slot = claimSendSlot(nextAt, 5_000, 20);
      sendAts.push(slot.sendAt);
      nextAt = slot.nextAt;
    }
    expect(sendAts[0]).toBe(5_000);
    expect(sendAts[99]).toBe(5_000 + 99 * 50);
    // 100 requests at 20/s span 4.95 s between the first and the last: 99 intervals.
    expect(new Set(sendAts.map((at, index) => at - index * 50))).toEqual(new Set([5_000]));
  });

  it('saves up no burst while the webhook is idle', () => {
    const first = claimSendSlot(null, 0, 10);
    const later = claimSendSlot(first.nextAt, 60_000, 10);
    const next = claimSendSlot(later.nextAt, 60_000, 10);
    expect(later.sendAt).toBe(60_000);
    expect(next.sendAt).toBe(60_100);
  });

  it('never lets more than the limit leave within any second', () => {
    const perSecond = 7;
    let nextAt: number | null = null;
    const sendAts: number[] = [];
    for (let now = 0; now < 3_000; now += 13) {
      const slot = claimSendSlot(nextAt, now, perSecond);
      nextAt = slot.nextAt;
      sendAts.push(slot.sendAt);
    }
    for (const start of sendAts) {
      expect(sendAts.filter((at) => at >= start && at < start + 1000).length).toBeLessThanOrEqual(perSecond);
    }
  });

  it('takes the bounds of the limit', () => {
    expect(sendIntervalMs(1)).toBe(1000);
    expect(sendIntervalMs(1000)).toBe(1);
    expect(claimSendSlot(10, 10, 1000)).toEqual({ sendAt: 10, nextAt: 11 });
  });
});

describe('sendWaitMs', () => {
  it('waits until the slot, rounded up to a whole millisecond', () => {
    expect(sendWaitMs(1_050.5, 1_000)).toBe(51);
  });

  it('does not sleep for a slot now, past, or closer than a timer is worth', () => {
    expect(sendWaitMs(1_000, 1_000)).toBe(0);
    expect(sendWaitMs(900, 1_000)).toBe(0);
    expect(sendWaitMs(1_000 + SEND_WAIT_MIN_MS - 1, 1_000)).toBe(0);
    expect(sendWaitMs(1_000 + SEND_WAIT_MIN_MS, 1_000)).toBe(SEND_WAIT_MIN_MS);
  });
});
