import type { DataSource } from 'typeorm';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import { noticeMail } from './alert-texts';
import { NoticesRepository } from './notices.repository';

/**
 * How long a notice waits before the sweep mails it: longer than the live send can take (the
 * mailer gives up within 50 s), so the sweep never mails what the live send is still sending.
 */
export const NOTICE_MAIL_GRACE_MS = 2 * 60 * 1000;
/** A notice this old is no longer news: the sweep leaves it to the app. */
export const NOTICE_MAIL_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const NOTICE_MAIL_BATCH = 20;

export interface LateNoticeMail {
  dataSource: DataSource;
  mailer: Mailer;
  publicUrl: () => string;
  logger: Logger;
  now?: Date;
}

/**
 * Mails the notices whose e-mail was not sent when they were made (the worker stopped before it,
 * or the mail server did not answer), oldest first, each once: they stay locked while they are
 * mailed, so two workers never send the same one. Stops at the first failed send (the server is
 * away: the next run tries again). Returns how many it mailed.
 */
export async function mailLateNotices({
  dataSource,
  mailer,
  publicUrl,
  logger,
  now = new Date(),
}: LateNoticeMail): Promise<number> {
  const page = `${publicUrl().replace(/\/+$/, '')}/webhooks`;
  return dataSource.transaction(async (manager) => {
    const notices = new NoticesRepository(manager);
    const late = await notices.lockUnmailed(
      new Date(now.getTime() - NOTICE_MAIL_MAX_AGE_MS),
      new Date(now.getTime() - NOTICE_MAIL_GRACE_MS),
      NOTICE_MAIL_BATCH,
    );
    let mailed = 0;
    for (const notice of late) {
      try {
        await mailer.send(noticeMail(notice, notice, page));
      } catch (error) {
        logger.warn({ err: error, kind: notice.kind }, 'a late webhook notice was not mailed');
        break;
      }
      await notices.markMailed(notice.id);
      mailed += 1;
    }
    return mailed;
  });
}
