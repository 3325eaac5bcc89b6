import { LaneBudget } from './lane-budget';

const key = (workspaceId: string, webhookId: string) => ({ workspaceId, webhookId });

describe('LaneBudget', () => {
  it('lets an endpoint hold at most its share, and frees the place when the attempt leaves', () => {
    const sut = new LaneBudget({ slots: 10, perWorkspace: 5, perEndpoint: 2 });
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
    const sut = new LaneBudget({ slots: 10, perWorkspace: 3, perEndpoint: 3 });
    for (const webhook of ['a1', 'a2', 'a3']) expect('leave' in sut.enter(key('a', webhook))).toBe(true);
    expect(sut.enter(key('a', 'a4'))).toEqual({ deferred: 'workspace-share' });
    expect('leave' in sut.enter(key('b', 'b1'))).toBe(true);
    expect(sut.endpoints()).toEqual(
      expect.arrayContaining([{ workspaceId: 'b', webhookId: 'b1', inFlight: 1 }]),
    );
  });

  it('defers everyone once every slot is taken', () => {
    const sut = new LaneBudget({ slots: 2, perWorkspace: 2, perEndpoint: 2 });
    sut.enter(key('a', 'a1'));
    sut.enter(key('b', 'b1'));
    expect(sut.enter(key('c', 'c1'))).toEqual({ deferred: 'lane-full' });
  });

  it('says how much room an endpoint has, the smallest of its three budgets', () => {
    const sut = new LaneBudget({ slots: 5, perWorkspace: 3, perEndpoint: 2 });
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
    const sut = new LaneBudget({ slots: 5, perWorkspace: 5, perEndpoint: 5 });
    const left: string[] = [];
    sut.onLeave((leaving) => left.push(leaving.webhookId));
    const place = sut.enter(key('a', 'a1'));
    if ('leave' in place) place.leave();
    expect(left).toEqual(['a1']);
  });

  it('counts a reservation as a place until its attempt takes it, and gives it back when none comes', () => {
    let now = 0;
    const sut = new LaneBudget({ slots: 5, perWorkspace: 5, perEndpoint: 2 }, () => now);
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
});
