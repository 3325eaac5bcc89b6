import { LaneBudget, type LanePlace } from './lane-budget';

const key = (workspaceId: string, webhookId: string) => ({ workspaceId, webhookId });
/** Fixed windows (they never grow past `perEndpoint`), as the lane was before windows. */
const fixed = (slots: number, perWorkspace: number, perEndpoint: number) => ({
  slots,
  perWorkspace,
  workspaceCeiling: slots,
  window: { initial: perEndpoint, ceiling: perEndpoint },
});
/** Windows that grow from `initial` to `ceiling`. */
const adaptive = (
  slots: number,
  perWorkspace: number,
  workspaceCeiling: number,
  initial: number,
  ceiling: number,
) => ({
  slots,
  perWorkspace,
  workspaceCeiling,
  window: { initial, ceiling },
});
const placeOf = (entered: ReturnType<LaneBudget['enter']>): LanePlace => {
  if (!('leave' in entered)) throw new Error(`expected a place, got ${entered.deferred}`);
  return entered;
};
/** Fills the endpoint's window, then every attempt delivers: one full round trip. */
function deliverFullWindow(sut: LaneBudget, webhook: ReturnType<typeof key>): void {
  const places: LanePlace[] = [];
  for (;;) {
    const entered = sut.enter(webhook);
    if (!('leave' in entered)) break;
    places.push(entered);
  }
  for (const place of places) {
    sut.learn(webhook, place, { signal: 'delivered', durationMs: 4900 });
    place.leave();
  }
}

describe('LaneBudget', () => {
  it('lets an endpoint hold at most its share, and frees the place when the attempt leaves', () => {
    const sut = new LaneBudget(fixed(10, 5, 2));
    const first = sut.enter(key('a', 'a1'));
    const second = sut.enter(key('a', 'a1'));
    expect(sut.enter(key('a', 'a1'))).toEqual({ deferred: 'endpoint-share' });
    // Another endpoint of the same workspace still gets in.
    expect('leave' in sut.enter(key('a', 'a2'))).toBe(true);
    if (!('leave' in first) || !('leave' in second)) throw new Error('expected places');
    first.leave();
    first.leave(); // leaving twice frees one place only
    expect('leave' in sut.enter(key('a', 'a1'))).toBe(true);
    expect(sut.enter(key('a', 'a1'))).toEqual({ deferred: 'endpoint-share' });
    expect(sut.inFlight).toBe(3);
  });

  it('lets a workspace hold at most its share across its endpoints, not touching another workspace', () => {
    const sut = new LaneBudget(fixed(10, 3, 3));
    for (const webhook of ['a1', 'a2', 'a3']) expect('leave' in sut.enter(key('a', webhook))).toBe(true);
    expect(sut.enter(key('a', 'a4'))).toEqual({ deferred: 'workspace-share' });
    expect('leave' in sut.enter(key('b', 'b1'))).toBe(true);
    expect(sut.endpoints()).toEqual(
      expect.arrayContaining([{ workspaceId: 'b', webhookId: 'b1', inFlight: 1, window: 3 }]),
    );
  });

  it('defers everyone once every slot is taken', () => {
    const sut = new LaneBudget(fixed(2, 2, 2));
    sut.enter(key('a', 'a1'));
    sut.enter(key('b', 'b1'));
    expect(sut.enter(key('c', 'c1'))).toEqual({ deferred: 'lane-full' });
  });

  it('says how much room an endpoint has, the smallest of its three budgets', () => {
    const sut = new LaneBudget(fixed(5, 3, 2));
    expect(sut.roomFor(key('a', 'a1'))).toBe(2);
    sut.enter(key('a', 'a2'));
    sut.enter(key('a', 'a3'));
    expect(sut.roomFor(key('a', 'a1'))).toBe(1);
    sut.enter(key('b', 'b1'));
    sut.enter(key('b', 'b2'));
    sut.enter(key('b', 'b3'));
    expect(sut.roomFor(key('a', 'a1'))).toBe(0);
  });

  it('tells its listeners which endpoint an attempt left', () => {
    const sut = new LaneBudget(fixed(5, 5, 5));
    const left: string[] = [];
    sut.onLeave((leaving) => left.push(leaving.webhookId));
    const place = sut.enter(key('a', 'a1'));
    if ('leave' in place) place.leave();
    expect(left).toEqual(['a1']);
  });

  it('gives a reservation back at once when its attempt waits for the rate limit, and says so', () => {
    const sut = new LaneBudget(fixed(5, 5, 2));
    const left: string[] = [];
    sut.onLeave((leaving) => left.push(leaving.webhookId));
    expect([1, 2, 3].map(() => sut.reserve(key('a', 'a1')))).toEqual([true, true, false]);
    sut.forgo(key('a', 'a1'));
    expect([sut.inFlight, sut.roomFor(key('a', 'a1')), left]).toEqual([1, 1, ['a1']]);
    sut.forgo(key('a', 'a1'));
    // No reservation left: nothing more to give back, an attempt in flight keeps its place.
    const place = placeOf(sut.enter(key('a', 'a1')));
    sut.forgo(key('a', 'a1'));
    expect([sut.inFlight, left]).toEqual([1, ['a1', 'a1']]);
    place.leave();
    expect(sut.inFlight).toBe(0);
  });

  it('counts a reservation as a place until its attempt takes it, and gives it back when none comes', () => {
    let now = 0;
    const sut = new LaneBudget(fixed(5, 5, 2), () => now);
    expect(sut.reserve(key('a', 'a1'))).toBe(true);
    expect(sut.reserve(key('a', 'a1'))).toBe(true);
    expect(sut.reserve(key('a', 'a1'))).toBe(false);
    expect(sut.roomFor(key('a', 'a1'))).toBe(0);
    // The attempts take the reserved places: no more than two in flight.
    expect('leave' in sut.enter(key('a', 'a1'))).toBe(true);
    expect(sut.inFlight).toBe(2);
    // The second reservation's attempt never came: after 10 s its place is free again.
    now = 10_001;
    expect(sut.roomFor(key('a', 'a1'))).toBe(1);
    expect(sut.inFlight).toBe(1);
  });

  it('grows a window that delivers when full, past the initial one, without taking from the workspace share', () => {
    const sut = new LaneBudget(adaptive(100, 4, 50, 2, 30));
    const slow = key('a', 'slow');
    deliverFullWindow(sut, slow); // 2 → 4
    deliverFullWindow(sut, slow); // 4 → 8
    expect(sut.windowCapacity('slow')).toBe(8);
    // Room to start more at once is the first window's (2), however wide the window has grown.
    expect(sut.roomFor(slow)).toBe(2);
    const places = Array.from({ length: 8 }, () => placeOf(sut.enter(slow)));
    expect(places.map((place) => place.filled)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    expect(sut.enter(slow)).toEqual({ deferred: 'endpoint-share' });
    // Only its first two places are probes: the workspace's other endpoints still get theirs.
    expect(sut.roomFor(key('a', 'new'))).toBe(2);
    placeOf(sut.enter(key('a', 'new')));
    placeOf(sut.enter(key('a', 'new')));
    expect(sut.enter(key('a', 'third'))).toEqual({ deferred: 'workspace-share' });
  });

  it('stops earned places at the workspace ceiling and the lane at its slots', () => {
    let now = 0;
    const sut = new LaneBudget(adaptive(12, 4, 10, 2, 30), () => now);
    const slow = key('a', 'slow');
    for (let trip = 0; trip < 6; trip++, now += 5000) deliverFullWindow(sut, slow);
    // 2 → 4 → 8 → 16, then the ceiling, not the window, holds deliveries back: it grows no more.
    expect(sut.windowCapacity('slow')).toBe(16);
    expect(sut.roomFor(slow)).toBe(2);
    for (let i = 0; i < 10; i++) placeOf(sut.enter(slow));
    expect(sut.enter(slow)).toEqual({ deferred: 'workspace-share' });
    placeOf(sut.enter(key('b', 'b1')));
    placeOf(sut.enter(key('b', 'b1')));
    expect(sut.enter(key('c', 'c1'))).toEqual({ deferred: 'lane-full' });
  });

  it('does not grow the window of an endpoint that never needed it', () => {
    const sut = new LaneBudget(adaptive(100, 10, 100, 4, 30));
    const quiet = key('a', 'quiet');
    for (let i = 0; i < 50; i++) {
      const place = placeOf(sut.enter(quiet));
      sut.learn(quiet, place, { signal: 'delivered', durationMs: 20 });
      place.leave();
    }
    expect(sut.windowCapacity('quiet')).toBe(4);
  });

  it('shrinks the window on overload, so fewer attempts enter until it grows again', () => {
    const sut = new LaneBudget(adaptive(100, 10, 100, 4, 30));
    const slow = key('a', 'slow');
    deliverFullWindow(sut, slow);
    expect(sut.windowCapacity('slow')).toBe(8);
    const place = placeOf(sut.enter(slow));
    sut.learn(slow, place, { signal: 'overloaded', durationMs: 5000 });
    place.leave();
    expect(sut.windowCapacity('slow')).toBe(5);
    expect(sut.roomFor(slow)).toBe(4);
  });

  it("starts a few of an endpoint's deliveries at once and a workspace's within its share, whatever the windows", () => {
    let now = 0;
    const sut = new LaneBudget(adaptive(100, 3, 100, 2, 30), () => now);
    const slow = key('a', 'slow');
    for (let trip = 0; trip < 4; trip++, now += 5000) deliverFullWindow(sut, slow);
    expect(sut.windowCapacity('slow')).toBe(30);
    // Two of the endpoint's at once (its first window), though its window is 30…
    expect([1, 2, 3].map(() => sut.reserve(slow))).toEqual([true, true, false]);
    // …and three of the workspace's (its share): the rest wait held; another workspace's do not.
    expect([1, 2].map(() => sut.reserve(key('a', 'other')))).toEqual([true, false]);
    expect(sut.reserve(key('b', 'b1'))).toBe(true);
    // The attempts take their reservations: room to start again, while the window has room.
    for (let i = 0; i < 2; i++) placeOf(sut.enter(slow));
    expect(sut.roomFor(slow)).toBe(2);
    // A reservation whose attempt never came gives its place back after 10 s.
    expect(sut.reserve(slow)).toBe(true);
    now += 10_001;
    expect(sut.roomFor(slow)).toBe(2);
  });
});
