// When repeated failed sign-ins lock an account or a client address, and for how long
// (docs/app-api.md, sign-in). Pure: src/identity/sign-in/sign-in-throttle.ts counts in PostgreSQL.
import ipaddr from 'ipaddr.js';

export interface LockoutRule {
  /** Failures allowed before the first lock: the attempt that makes this many starts it. */
  failures: number;
  /** The first lock, in seconds; each further failure doubles it… */
  firstLockSeconds: number;
  /** …up to this, so a lock never lasts longer, however many failures an attacker piles up. */
  maxLockSeconds: number;
}

/**
 * How long an attempt that is the `attempt`-th failure in a row (counting itself) locks what it
 * counts against: nothing before the rule's `failures`, then doubling from the first lock, capped.
 */
export function lockSeconds(attempt: number, rule: LockoutRule): number {
  if (attempt < rule.failures) return 0;
  const doublings = Math.min(attempt - rule.failures, 30);
  return Math.min(rule.maxLockSeconds, rule.firstLockSeconds * 2 ** doublings);
}

/**
 * The address a client's attempts count against: an IPv4 address (IPv4-mapped IPv6 included) as
 * itself, an IPv6 address by its /64, since one subscriber usually holds a whole /64 and could
 * otherwise take a fresh address for every guess. Unparseable input counts as itself.
 */
export function clientAddressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
