/**
 * How a workspace's release budget for one pass is shared out between its endpoints that are not
 * healthy: one delivery each in turn, beginning at `start` (the pass turns it), so a workspace with
 * a hundred dead endpoints releases as much in all as one with one, and each of them gets its turn.
 * The shares, per endpoint in the order given (zeros included).
 */
export function releaseShares(endpoints: number, budget: number, start: number): number[] {
  const shares = new Array<number>(endpoints).fill(0);
  if (endpoints <= 0 || budget <= 0) return shares;
  const each = Math.floor(budget / endpoints);
  const extra = budget % endpoints;
  const first = ((start % endpoints) + endpoints) % endpoints;
  for (let i = 0; i < endpoints; i++)
    shares[i] = each + ((i - first + endpoints) % endpoints < extra ? 1 : 0);
  return shares;
}
