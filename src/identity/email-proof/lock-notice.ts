import type { Pool } from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { sharedCounter } from '../../security/shared-counter';
import { normaliseEmail } from '../sign-in/email';
import { User } from '../user.entity';
import { sendMail, type MailDeps } from './email-proof.service';
import { accountLockedMessage } from './proof-mail';

/** At most one notice per account in this window, however many locks and guesses follow. */
export const LOCK_NOTICE_PER_ACCOUNT = { points: 1, windowSeconds: 60 * 60 };

/**
 * Tells the owner that failed sign-ins locked their account (issue 34, "a lockout an attacker
 * cannot aim"): the throttle calls it when a run of failures first locks an email
 * (sign-in-throttle.ts), and it mails the account's address, with the web app's forgot-password
 * page, at most once an hour per account (LOCK_NOTICE_PER_ACCOUNT, counted in PostgreSQL so every
 * API process shares it).
 *
 * Nothing of it is awaited by the sign-in: the throttle calls it for any email, known or not, and
 * the lookup, the count and the mail run after the answer, so neither the answer nor its time tells
 * whether an account exists. An email without an account gets nothing (nobody is mailed who has no
 * account here). A failing SMTP server, or database, is logged; the sign-in never hears of it.
 */
export function lockNotifier(deps: MailDeps, pool: Pool): (email: string) => void {
  const notices = sharedCounter(pool, {
    keyPrefix: 'account-lock-notice',
    points: LOCK_NOTICE_PER_ACCOUNT.points,
    duration: LOCK_NOTICE_PER_ACCOUNT.windowSeconds,
    clearExpired: false,
  });
  const notify = async (email: string) => {
    const user = await deps.dataSource.manager.findOneBy(User, { email: normaliseEmail(email) });
    if (!user) return;
    try {
      await notices.consume(user.id);
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return;
      throw refused;
    }
    const page = `${deps.publicUrl().replace(/\/+$/, '')}/forgot-password`;
    await sendMail(deps, accountLockedMessage(user.email, user.name, page));
  };
  return (email) => {
    void notify(email).catch((error: unknown) =>
      deps.logger.error({ err: error }, 'the notice of a locked account could not be sent'),
    );
  };
}
