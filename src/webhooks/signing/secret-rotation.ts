import { SECRET_ROTATION_GRACE_HOURS_MAX } from '../../shared/limits';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Secret rotation with a grace period (issue 27, item 2), as Stripe and Svix roll a secret: the new
 * secret becomes current at once; the one it replaced keeps signing for `graceHours` (0 to 24).
 * `webhook-signature` (Standard Webhooks) carries both, so a receiver of that scheme verifies with
 * either while it switches. X-Webhook-Signature (the spec's) holds one signature: the replaced
 * secret's until the grace ends, then the new one's (`legacySignatureSecret`, issue 33, item 4).
 *
 * When the previous secret stops signing: `graceHours` after `now`; null when nothing is kept
 * (there was no secret to keep, or no grace).
 */
export function previousSecretExpiry(hadSecret: boolean, graceHours: number, now: Date): Date | null {
  if (!Number.isInteger(graceHours) || graceHours < 0 || graceHours > SECRET_ROTATION_GRACE_HOURS_MAX) {
    throw new RangeError(`graceHours is a whole number from 0 to ${SECRET_ROTATION_GRACE_HOURS_MAX}`);
  }
  return hadSecret && graceHours > 0 ? new Date(now.getTime() + graceHours * HOUR_MS) : null;
}

/** Whether a previous secret kept until `expiresAt` still signs at `now` (its end excluded). */
export const previousSecretSigns = (expiresAt: Date | null, now: Date): expiresAt is Date =>
  expiresAt !== null && now.getTime() < expiresAt.getTime();

/**
 * The secrets that sign a send at `now`: the current one first, then the previous one while its
 * grace lasts (checked at send time, so a sweep that has not run yet changes nothing).
 */
export function signingSecrets(
  current: string | null,
  previous: { secret: string; expiresAt: Date } | null,
  now: Date,
): string[] {
  if (current === null) return [];
  return previous && previousSecretSigns(previous.expiresAt, now) ? [current, previous.secret] : [current];
}

/**
 * The secret of X-Webhook-Signature among `signingSecrets`: the oldest that still signs, which is
 * the previous one during a rotation's grace, then the current one. The header holds a single
 * signature, so a receiver that checks only it cannot try two secrets the way a Standard Webhooks
 * library does; with the new secret at once, every delivery of the grace would fail there for good
 * (a 401 is not retried). Keeping the old secret until the grace ends leaves that receiver the
 * whole grace to accept the new one (docs/receivers.md, "Rotating the secret"). undefined: no secret.
 */
export const legacySignatureSecret = (secrets: readonly string[]): string | undefined => secrets.at(-1);
