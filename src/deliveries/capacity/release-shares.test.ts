import { releaseShares } from './release-shares';

describe('releaseShares', () => {
  it("shares a workspace's budget out one each in turn, however many endpoints it has", () => {
    expect(releaseShares(100, 5, 0).reduce((sum, share) => sum + share, 0)).toBe(5);
    expect(releaseShares(4, 2, 0)).toEqual([1, 1, 0, 0]);
    expect(releaseShares(4, 2, 3)).toEqual([1, 0, 0, 1]);
    expect(releaseShares(2, 5, 1)).toEqual([2, 3]);
  });

  it('gives one endpoint the whole budget', () => {
    expect(releaseShares(1, 5, 7)).toEqual([5]);
  });

  it('gives every endpoint its turn as the passes go on', () => {
    const given = new Array<number>(10).fill(0);
    for (let pass = 0; pass < 4; pass++)
      releaseShares(10, 5, pass * 5).forEach((share, i) => (given[i] = given[i]! + share));
    expect(given).toEqual(new Array(10).fill(2));
  });

  it('gives nothing when there is no budget', () => {
    expect(releaseShares(3, 0, 0)).toEqual([0, 0, 0]);
    expect(releaseShares(3, -4, 0)).toEqual([0, 0, 0]);
    expect(releaseShares(0, 5, 0)).toEqual([]);
  });
});
