import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Config } from '../../config';
import { rateLimitError } from '../../shared/app-error';
import { normaliseEmail } from './email';
import { clientAddressKey } from '../../security/client-address-key';
import { sharedCounter, spendEach } from '../../security/shared-counter';
import { lockSeconds, type LockoutRule } from './lockout.rules';

// Candidate settings (docs/security.md, "Limits"): named here until the lead wires them into config.
/** Failed sign-ins (or current-password checks) in a row for one email, from anywhere. */
export const ACCOUNT_LOCKOUT: LockoutRule & { memorySeconds: number } = {
  failures: 5,
  firstLockSeconds: 60,
  maxLockSeconds: 15 * 60,
  /** A run of failures is forgotten this long after its first one (a success ends it at once). */
  memorySeconds: 24 * 60 * 60,
};
/** Failed sign-ins from one client address (an IPv6 /64), whichever emails they tried. */
export const ADDRESS_LOCKOUT: LockoutRule & { memorySeconds: number } = {
  failures: 10,
  firstLockSeconds: 60,
  maxLockSeconds: 15 * 60,
  /** Short, so people sharing an address (an office) are not held by a morning's typos all day. */
  memorySeconds: 60 * 60,
};
/**
 * Failed sign-ins in a row with one device cookie (a browser that signed in to the account before),
 * which are counted apart from everyone else's: the numbers are settings (SIGN_IN_DEVICE_*).
 */
export type DeviceLockout = LockoutRule & { memorySeconds: number };
/** Sign-ups from one client address per window, whatever their outcome. */
export const SIGN_UP_PER_ADDRESS = { points: 10, windowSeconds: 60 * 60 };
/**
 * Password-reset requests (issue 34): each email, known or not, and each client address, per hour.
 * Every request counts, so the answer never depends on whether an account exists, and nobody can
 * make the service mail one inbox more than a few times an hour.
 */
export const PASSWORD_RESET_PER_EMAIL = { points: 3, windowSeconds: 60 * 60 };
export const PASSWORD_RESET_PER_ADDRESS = { points: 10, windowSeconds: 60 * 60 };

/** What an attempt claimed, to settle once the password is checked. */
interface Claim {
  key: string;
  /** The attempt holds the lock it would start by failing (the lockout's `failures`-th and after). */
  holdsLock: boolean;
  /** …and that lock is the first of its run of failures (the run the rule's memory keeps). */
  firstLock: boolean;
}

/**
 * Failures in a row against one subject (an account or an address), and the lock they start,
 * counted in PostgreSQL so every API process sees them (rate-limiter-flexible, `rate_limits`).
 * An attempt counts as a failure from the moment it is claimed, before the password is checked;
 * from the threshold on, it must take the lock first, so of 100 simultaneous guesses only those
 * below the threshold and the one that takes the lock are checked at all. A lock's length follows
 * the locks taken so far, not the attempt count, which the refused ones of a burst inflate.
 */
class Lockout {
  private readonly failures: RateLimiterPostgres;
  private readonly locks: RateLimiterPostgres;
  private readonly lock: RateLimiterPostgres;

  constructor(
    name: string,
    private readonly rule: LockoutRule & { memorySeconds: number },
    pool: Pool,
  ) {
    const counter = (suffix: string, points: number, duration: number) =>
      sharedCounter(pool, {
        keyPrefix: `${name}-${suffix}`,
        points,
        duration,
        clearExpired: suffix === 'failures',
      });
    this.failures = counter('failures', Number.MAX_SAFE_INTEGER, rule.memorySeconds);
    this.locks = counter('locks', Number.MAX_SAFE_INTEGER, rule.memorySeconds);
    this.lock = counter('lock', 1, rule.firstLockSeconds);
  }

  /** Claims an attempt, or answers how many seconds the subject stays locked. */
  async claim(key: string): Promise<Claim | { retryAfterSeconds: number }> {
    // A running lock refuses before anything is counted, even one whose run of failures is
    // forgotten already (the run's window can end before the lock it started).
    const running = await this.lock.get(key);
    if (running && running.consumedPoints >= 1 && running.msBeforeNext > 0) return retryAfter(running);
    const attempt = (await this.failures.consume(key)).consumedPoints;
    if (attempt < this.rule.failures) return { key, holdsLock: false, firstLock: false };
    try {
      // Held for the first lock's length while this attempt learns which lock it starts.
      await this.lock.consume(key, 1, { customDuration: this.rule.firstLockSeconds });
    } catch (locked) {
      if (!(locked instanceof RateLimiterRes)) throw locked;
      // Refused: the lock it met is not lengthened (a lock's length follows the locks taken, not
      // the attempts). It stays counted, so the count never falls back under the threshold while
      // a burst is refused, which would let another guess be checked.
      return retryAfter(locked);
    }
    const taken = (await this.locks.consume(key)).consumedPoints;
    const seconds = lockSeconds(this.rule.failures - 1 + taken, this.rule);
    if (seconds !== this.rule.firstLockSeconds) await this.lock.set(key, 1, seconds);
    return { key, holdsLock: true, firstLock: taken === 1 };
  }

  /** The attempt was no failure (the right password, or refused elsewhere): as if never made. */
  async release(claim: Claim): Promise<void> {
    await this.failures.reward(claim.key, 1);
    if (claim.holdsLock) await Promise.all([this.lock.delete(claim.key), this.locks.reward(claim.key, 1)]);
  }

  /** The right password ends the run of failures. */
  async reset(key: string): Promise<void> {
    await Promise.all([this.failures.delete(key), this.locks.delete(key), this.lock.delete(key)]);
  }
}

const retryAfter = (lock: RateLimiterRes) => ({
  retryAfterSeconds: Math.max(1, Math.ceil(lock.msBeforeNext / 1000)),
});

const isClaim = (result: Claim | { retryAfterSeconds: number }): result is Claim => 'key' in result;

/**
 * Sign-in guessing (docs/security.md): each email, from anywhere, and each client address, to a
 * lock that grows with failures in a row and is capped; and sign-ups per address. Refusals are 429
 * `rate_limit` with `Retry-After`, decided before any password is checked.
 *
 * Attempts that carry a valid device cookie for the account (device-cookie.ts) are counted apart:
 * only against that device's own lock, so strangers' failures, which lock the account and their
 * addresses, never refuse a browser that signed in before.
 */
export class SignInThrottle {
  private readonly accounts: Lockout;
  private readonly addresses: Lockout;
  private readonly devices: Lockout;
  /** Change password's checks of the current password, per user (only a session of theirs gets there). */
  private readonly currentPasswords: Lockout;
  private readonly signUps: RateLimiterPostgres;
  private readonly resetsByEmail: RateLimiterPostgres;
  private readonly resetsByAddress: RateLimiterPostgres;

  /**
   * @param onAccountLocked told (and not awaited) when failures first lock an account's email in a
   *   run of them, whether or not the email has an account: the owner's notice (lock-notice.ts).
   */
  constructor(
    pool: Pool,
    deviceLockout: DeviceLockout,
    private readonly onAccountLocked: (email: string) => void = () => undefined,
  ) {
    this.accounts = new Lockout('sign-in-account', ACCOUNT_LOCKOUT, pool);
    this.addresses = new Lockout('sign-in-address', ADDRESS_LOCKOUT, pool);
    this.devices = new Lockout('sign-in-device', deviceLockout, pool);
    this.currentPasswords = new Lockout('sign-in-current-password', ACCOUNT_LOCKOUT, pool);
    const perWindow = (keyPrefix: string, rule: { points: number; windowSeconds: number }) =>
      sharedCounter(pool, {
        keyPrefix,
        points: rule.points,
        duration: rule.windowSeconds,
        clearExpired: false,
      });
    this.signUps = perWindow('sign-up-address', SIGN_UP_PER_ADDRESS);
    this.resetsByEmail = perWindow('password-reset-email', PASSWORD_RESET_PER_EMAIL);
    this.resetsByAddress = perWindow('password-reset-address', PASSWORD_RESET_PER_ADDRESS);
  }

  /** Counts a password-reset request for this email from this address, or refuses it. */
  async passwordReset(subject: { email: string; ip: string }): Promise<void> {
    await spendEach(
      [
        [this.resetsByAddress, clientAddressKey(subject.ip)],
        [this.resetsByEmail, emailKey(subject.email)],
      ],
      (seconds) =>
        rateLimitError(
          `Too many password-reset requests. Try again in ${waitText(seconds)}.`,
          seconds,
          'passwordResetThrottled',
        ),
    );
  }

  /**
   * Forgets the account's failed sign-ins and its lock: the owner proved the address by an
   * e-mailed link (password reset), or an operator reset the password.
   */
  async clearAccount(email: string): Promise<void> {
    await this.accounts.reset(emailKey(email));
  }

  /**
   * Runs `check` (which must do the same work whether or not the email is known) unless the email
   * or the address is locked, and counts its outcome: what it finds means the password was right,
   * undefined that it was wrong.
   *
   * With `device` (the nonce of a device cookie already proven valid for this email) the attempt is
   * counted only against that device: the account's and the address's locks, which strangers can
   * set, neither refuse it nor hear of it, and its right password leaves them as they are (so the
   * owner signing in hands an attacker no fresh run of guesses).
   */
  async guard<T>(
    subject: { email: string; ip: string; device?: string },
    check: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (subject.device !== undefined) return this.guardDevice(subject.device, check);
    const accountKey = emailKey(subject.email);
    const address = await this.addresses.claim(clientAddressKey(subject.ip));
    if (!isClaim(address)) throw throttled('from this address', address.retryAfterSeconds);
    const account = await this.accounts.claim(accountKey);
    if (!isClaim(account)) {
      await this.addresses.release(address);
      throw throttled('for this email', account.retryAfterSeconds);
    }
    const passed = await check();
    if (passed !== undefined) {
      await this.accounts.reset(accountKey);
      await this.addresses.release(address);
    } else if (account.firstLock) {
      // Decided by the count alone, the same for an unknown email; the notice runs after the answer.
      this.onAccountLocked(subject.email);
    }
    return passed;
  }

  private async guardDevice<T>(device: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const key = deviceKey(device);
    const claim = await this.devices.claim(key);
    if (!isClaim(claim)) throw throttled('from this browser', claim.retryAfterSeconds);
    const passed = await check();
    if (passed !== undefined) await this.devices.reset(key);
    return passed;
  }

  /**
   * Change password's check of the current password, by a signed-in person. Its own lock, per user,
   * refuses it (a stolen session guessing): only a session of that user reaches it, so strangers
   * cannot aim it, and the account's lock (which they can) does not refuse it. A wrong current
   * password still counts against the account as a failed sign-in does, so a thief's guesses here
   * and at sign-in share the account's allowance for browsers without a device cookie.
   */
  async guardCurrentPassword<T>(
    subject: { userId: string; email: string },
    check: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const key = subject.userId;
    const claim = await this.currentPasswords.claim(key);
    if (!isClaim(claim)) throw throttled('for this account', claim.retryAfterSeconds);
    const passed = await check();
    if (passed !== undefined) await this.currentPasswords.reset(key);
    // Counted whether or not the account is locked already (a running lock counts nothing more).
    else {
      const account = await this.accounts.claim(emailKey(subject.email));
      if (isClaim(account) && account.firstLock) this.onAccountLocked(subject.email);
    }
    return passed;
  }

  /** Counts a sign-up from this address, or refuses it. */
  async signUp(ip: string): Promise<void> {
    await spendEach([[this.signUps, clientAddressKey(ip)]], (seconds) =>
      rateLimitError(
        `Too many sign-ups from this address: at most ${SIGN_UP_PER_ADDRESS.points} an hour. ` +
          `Try again in ${waitText(seconds)}.`,
        seconds,
        'signUpThrottled',
      ),
    );
  }
}

/** The account's key: a hash, so the table holds no email and every key fits its 255 characters. */
const emailKey = (email: string) => createHash('sha256').update(normaliseEmail(email)).digest('hex');

/** A device's key: a hash of its nonce, so the table holds nothing a cookie is made of. */
const deviceKey = (nonce: string) => createHash('sha256').update(nonce).digest('hex');

const waitText = (seconds: number) =>
  seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;

const throttled = (whose: string, seconds: number) =>
  rateLimitError(
    `Too many failed sign-ins ${whose}. Try again in ${waitText(seconds)}.`,
    seconds,
    'signInThrottled',
  );

/**
 * The throttle with the device lockout the settings give (SIGN_IN_DEVICE_*), for the API and the
 * CLI; the API passes `onAccountLocked` to mail the owner (lock-notice.ts).
 */
export function signInThrottleOf(
  pool: Pool,
  config: Pick<
    Config,
    'SIGN_IN_DEVICE_FAILURES' | 'SIGN_IN_DEVICE_LOCK_SECONDS' | 'SIGN_IN_DEVICE_MAX_LOCK_SECONDS'
  >,
  onAccountLocked?: (email: string) => void,
): SignInThrottle {
  return new SignInThrottle(
    pool,
    {
      failures: config.SIGN_IN_DEVICE_FAILURES,
      firstLockSeconds: config.SIGN_IN_DEVICE_LOCK_SECONDS,
      maxLockSeconds: config.SIGN_IN_DEVICE_MAX_LOCK_SECONDS,
      memorySeconds: 24 * 60 * 60,
    },
    onAccountLocked,
  );
}
