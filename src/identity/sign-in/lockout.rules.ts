// When repeated failed sign-ins lock an account or a client address, and for how long
// (docs/app-api.md, sign-in). Pure: src/identity/sign-in/sign-in-throttle.ts counts in PostgreSQL.
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
