// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; docs/security.md):
// after a successful sign-in, or after opening a link mailed to the account's address (verify the
// address, reset the password, accept an invitation as a new account), the browser keeps a signed
// cookie naming the account and a random nonce. A sign-in that carries a valid one for the email it tries is counted apart from strangers'
// (its own lockout, per nonce), so failures of people without it cannot lock that browser out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { cookieSecurity } from '../sessions/session-auth';
import { normaliseEmail } from './email';

export const DEVICE_COOKIE = 'crm_device';
/**
 * Sent only where a password is checked: sign-in and change password. (Set also by routes outside
 * this path, accepting an invitation; a browser keeps a cookie whatever path it names.)
 */
const DEVICE_COOKIE_PATH = '/app/api/auth';
/** A cookie longer than any this service issues is not read. */
const MAX_LENGTH = 200;

/**
 * Issues and reads device cookies: `v1.<account tag>.<nonce>.<issued at>.<signature>`. The account
 * tag is an HMAC of the normalised email (the cookie shows no email); the signature, an HMAC of the
 * rest, so neither the account nor the nonce can be changed (a thief cannot mint fresh nonces, each
 * with a lockout of its own). Both keys are derived from ENCRYPTION_KEY, the same in every API process.
 */
export class DeviceCookies {
  private readonly tagKey: Buffer;
  private readonly signingKey: Buffer;

  constructor(
    encryptionKey: string,
    private readonly lifetimeDays: number,
    private readonly now: () => number = Date.now,
  ) {
    const derive = (purpose: string) =>
      createHmac('sha256', Buffer.from(encryptionKey, 'hex')).update(`device-cookie:${purpose}`).digest();
    this.tagKey = derive('account-tag');
    this.signingKey = derive('signature');
  }

  /** A new device cookie's value for this account, with a nonce of its own. */
  issue(email: string): string {
    const issuedAt = Math.floor(this.now() / 1000).toString(36);
    const payload = ['v1', this.accountTag(email), randomBytes(16).toString('base64url'), issuedAt].join('.');
    return `${payload}.${this.sign(payload)}`;
  }

  /**
   * The device's id (its nonce) when `value` is a cookie this service issued, unexpired, for this
   * email; otherwise undefined: no cookie, a forged or altered one, another account's, an old one.
   * Decided from the cookie and the typed email alone, never from the database, so it takes the
   * same time whether or not the email has an account.
   */
  deviceFor(value: string | undefined, email: string): string | undefined {
    if (!value || value.length > MAX_LENGTH) return undefined;
    const parts = value.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') return undefined;
    const [, tag, nonce, issued, signature] = parts as [string, string, string, string, string];
    if (!sameText(signature, this.sign(parts.slice(0, 4).join('.')))) return undefined;
    if (!sameText(tag, this.accountTag(email))) return undefined;
    const ageSeconds = this.now() / 1000 - parseInt(issued, 36);
    if (!(ageSeconds >= -60 && ageSeconds <= this.lifetimeDays * 24 * 60 * 60)) return undefined;
    return nonce;
  }

  /** Sets the cookie: HttpOnly, SameSite=Strict, Secure as the session cookie is, for its lifetime. */
  set(ctx: Context, value: string, publicUrl: string): void {
    ctx.cookies.set(DEVICE_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: DEVICE_COOKIE_PATH,
      ...cookieSecurity(ctx, publicUrl),
      maxAge: this.lifetimeDays * 24 * 60 * 60 * 1000,
      overwrite: true,
    });
  }

  private accountTag(email: string): string {
    return createHmac('sha256', this.tagKey)
      .update(normaliseEmail(email))
      .digest()
      .subarray(0, 18)
      .toString('base64url');
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.signingKey).update(payload).digest('base64url');
  }
}

/** Compares in constant time (for equal lengths; a length says nothing secret here). */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
