import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { ValidationError } from '../../shared/app-error';

/**
 * Single-use, expiring tokens carried by e-mailed links (issue 34, item 1). The link holds 32
 * random bytes; the database holds only their SHA-256, so a leaked table opens no account.
 */
export const EMAIL_TOKEN_PURPOSES = ['verify-email', 'reset-password'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** How long a link works: a day to prove an address, an hour to reset a password. */
export const EMAIL_TOKEN_LIFETIME_MS: Readonly<Record<EmailTokenPurpose, number>> = {
  'verify-email': 24 * 60 * 60 * 1000,
  'reset-password': 60 * 60 * 1000,
};

export const hashEmailToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A fresh random token (43 base64url characters) for a link; only its hash is stored. */
export const newEmailToken = () => randomBytes(32).toString('base64url');

/**
 * A new token of `purpose` for the user. Older unused tokens of the same purpose are spent at
 * once: only the newest link works, so an earlier mail (or one sent to an attacker's inbox before
 * the address changed hands) cannot be used later.
 */
export async function issueEmailToken(
  manager: EntityManager,
  userId: string,
  purpose: EmailTokenPurpose,
): Promise<string> {
  await manager.query(
    `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`,
    [userId, purpose],
  );
  const token = newEmailToken();
  await manager.query(
    `INSERT INTO email_tokens (user_id, purpose, token_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [userId, purpose, hashEmailToken(token), EMAIL_TOKEN_LIFETIME_MS[purpose] / 1000],
  );
  return token;
}

/**
 * Spends a token of `purpose` and returns its user's id. One conditional UPDATE: of two requests
 * with the same token, exactly one sees the row (the other waits on the row lock, then finds
 * `used_at` set). An unknown, used, superseded, expired or other-purpose token gets the same
 * answer, so the answer tells nothing about which.
 */
export async function consumeEmailToken(
  manager: EntityManager,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string> {
  const [rows] = (await manager.query(
    `UPDATE email_tokens SET used_at = now()
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
     RETURNING user_id`,
    [hashEmailToken(token), purpose],
  )) as [{ user_id: string }[], number];
  const userId = rows[0]?.user_id;
  if (!userId) {
    throw ValidationError.of(
      'This link is not valid any more: it was used, replaced by a newer one, or it expired.',
      'tokenInvalid',
      ['token'],
    );
  }
  return userId;
}
