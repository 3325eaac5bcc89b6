import type { DataSource } from 'typeorm';
import { conflictError, rateLimitError } from '../../shared/app-error';
import type { Logger } from '../../logger';
import type { Mailer, MailMessage } from '../../mail/mailer';
import { User } from '../user.entity';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import { linkTo, verifyEmailMessage } from './proof-mail';

/**
 * Re-sending the link to prove an address: at most one a minute and five an hour per account (the
 * sign-up's own mail counts), so an unverified account cannot make the service mail an address
 * it does not own more than a few times.
 */
export const VERIFY_RESEND_LIMITS = { minIntervalSeconds: 60, perHour: 5 } as const;

export interface MailDeps {
  dataSource: DataSource;
  /** Undefined when neither MAIL_URL nor a mail catcher is there (docs/mail.md): nothing is sent. */
  mailer: Mailer | undefined;
  logger: Logger;
  publicUrl: () => string;
}

/**
 * Sends a message and reports whether it went out. A failing SMTP server is logged, not thrown: the
 * account was already made, and the person can ask again (re-send, or the reset form).
 */
export async function sendMail(deps: MailDeps, message: MailMessage): Promise<boolean> {
  if (!deps.mailer) {
    deps.logger.warn({ subject: message.subject }, 'no mailer: a message was not sent (docs/mail.md)');
    return false;
  }
  try {
    await deps.mailer.send(message);
    return true;
  } catch (error) {
    deps.logger.error({ err: error, subject: message.subject }, 'mail was not accepted by the SMTP server');
    return false;
  }
}

/** Issues a new link to prove the user's address (superseding older ones) and mails it. */
export async function sendVerificationMail(deps: MailDeps, user: Pick<User, 'id' | 'email' | 'name'>) {
  const token = await issueEmailToken(deps.dataSource.manager, user.id, 'verify-email');
  await sendMail(
    deps,
    verifyEmailMessage(user.email, user.name, linkTo(deps.publicUrl(), 'verify-email', token)),
  );
}

/**
 * Another link for a signed-in, unverified user, within VERIFY_RESEND_LIMITS. The user's row is
 * locked while the count is read, so two requests at once cannot both pass.
 */
export async function resendVerificationMail(deps: MailDeps, userId: string): Promise<void> {
  const user = await deps.dataSource.transaction(async (manager) => {
    const [locked] = (await manager.query(
      `SELECT id, email, name, email_verified_at FROM users WHERE id = $1 FOR UPDATE`,
      [userId],
    )) as { id: string; email: string; name: string; email_verified_at: Date | null }[];
    if (!locked) throw conflictError('The account is gone.', 'accountGone');
    if (locked.email_verified_at) {
      throw conflictError('This address is already confirmed.', 'emailAlreadyVerified');
    }
    const [recent] = (await manager.query(
      `SELECT count(*)::int AS count,
              extract(epoch FROM now() - max(created_at))::float AS "sinceLast",
              extract(epoch FROM min(created_at) + interval '1 hour' - now())::float AS "untilSlot"
       FROM email_tokens
       WHERE user_id = $1 AND purpose = 'verify-email' AND created_at > now() - interval '1 hour'`,
      [userId],
    )) as { count: number; sinceLast: number | null; untilSlot: number | null }[];
    const { minIntervalSeconds, perHour } = VERIFY_RESEND_LIMITS;
    if (recent && recent.sinceLast !== null && recent.sinceLast < minIntervalSeconds) {
      throw rateLimitError(
        'A link was sent a moment ago. Wait a minute before asking for another.',
        Math.max(1, Math.ceil(minIntervalSeconds - recent.sinceLast)),
        'verificationMailThrottled',
      );
    }
    if (recent && recent.count >= perHour) {
      throw rateLimitError(
        'Too many links were sent this hour. Try again later.',
        Math.max(1, Math.ceil(recent.untilSlot ?? 3600)),
        'verificationMailThrottled',
      );
    }
    // Issued inside the lock, so the next request counts this one.
    const token = await issueEmailToken(manager, userId, 'verify-email');
    return { ...locked, token };
  });
  await sendMail(
    deps,
    verifyEmailMessage(user.email, user.name, linkTo(deps.publicUrl(), 'verify-email', user.token)),
  );
}

/**
 * Proves the address of the link's user; the token is spent whatever the account's state. Answers
 * the account's email, for the device cookie of the browser that opened the link.
 */
export async function verifyEmail(dataSource: DataSource, token: string): Promise<{ email: string }> {
  return dataSource.transaction(async (manager) => {
    const userId = await consumeEmailToken(manager, token, 'verify-email');
    const [rows] = (await manager.query(
      `UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1 RETURNING email`,
      [userId],
    )) as [{ email: string }[], number];
    if (!rows[0]) throw conflictError('The account is gone.', 'accountGone');
    return { email: rows[0].email };
  });
}
