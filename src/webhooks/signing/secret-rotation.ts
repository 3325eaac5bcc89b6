import { SECRET_ROTATION_GRACE_HOURS_MAX } from '../../shared/limits';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Secret rotation with a grace period (issue 27, item 2), as Stripe and Svix roll a secret: the new
 * secret becomes current at once and signs everything; the one it replaced keeps signing
 * `webhook-signature` beside it for `graceHours` (0 to 24), so a receiver of the Standard Webhooks
 * scheme verifies with either while it switches. X-Webhook-Signature (the spec's, one signature)
 * is signed with the current secret only.
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
