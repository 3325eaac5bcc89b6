import pino from 'pino';
import { Mailer } from '../../../src/mail/mailer';
import {
  mailLateNotices,
  NOTICE_MAIL_GRACE_MS,
  NOTICE_MAIL_MAX_AGE_MS,
} from '../../../src/deliveries/alerts/notice-mail-sweep';
import type { Actor } from '../../../src/identity/actor';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { newActor } from '../../helpers/delivery-log';
import { startTestMailCatcher, type TestMailCatcher } from '../../helpers/mail-catcher';
import { freePort } from '../../helpers/ports';

const MINUTE = 60 * 1000;

/**
 * A notice whose e-mail was not sent when it was made (the worker stopped first, or the mail
 * server was away) is mailed by the sweep later, once, to its reader, with the app's words; not
 * before the live send could still be at it, not when the reader already dismissed it, not when
 * it is a day old. Real PostgreSQL and the real mail catcher.
 */
describe('late notice mail', () => {
  let db: TestDatabase;
  let catcher: TestMailCatcher;
  let mailer: Mailer;
  let ada: Actor;
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    [db, catcher] = await Promise.all([createTestDatabase(4), startTestMailCatcher()]);
    mailer = new Mailer({ url: catcher.smtpUrl, from: 'CRM <no-reply@crm.test>' });
    ada = await newActor(db, 'ada@example.test', 'Late Co');
  });
  afterAll(async () => {
    mailer?.close();
    await Promise.all([catcher?.stop(), db?.drop()]);
  });
  beforeEach(async () => {
    await db.dataSource.query(`DELETE FROM notices`);
    await catcher.clear();
  });

  /** A notice to Ada made `ageMs` ago; its id. */
  const notice = async (
    title: string,
    ageMs: number,
    extra: { dismissed?: boolean; mailed?: boolean } = {},
  ) => {
    const [{ id }] = await db.dataSource.query(
      `INSERT INTO notices (workspace_id, user_id, kind, title, message, created_at, dismissed_at, mailed_at)
       VALUES ($1, $2, 'endpoint.failing', $3, 'Several deliveries in a row did not arrive.', now() - $4 * interval '1 ms',
               CASE WHEN $5 THEN now() END, CASE WHEN $6 THEN now() END)
       RETURNING id`,
      [ada.workspace.id, ada.user.id, title, ageMs, Boolean(extra.dismissed), Boolean(extra.mailed)],
    );
    return id as string;
  };
  const mailedAt = async (id: string) =>
    (await db.dataSource.query(`SELECT mailed_at FROM notices WHERE id = $1`, [id]))[0]
      .mailed_at as Date | null;
  const sweep = (withMailer = mailer) =>
    mailLateNotices({
      dataSource: db.dataSource,
      mailer: withMailer,
      publicUrl: () => 'http://crm.test/',
      logger,
    });

  it('mails a notice the live send missed, once, to its reader, with the words of the app', async () => {
    const id = await notice('Webhook failing: https://hooks.example.test/a', 5 * MINUTE);

    expect(await sweep()).toBe(1);
    const caught = await catcher.waitForMessage({ to: 'ada@example.test' });
    expect(caught.Subject).toBe('Webhook failing: https://hooks.example.test/a');
    expect(caught.Text).toContain('Several deliveries in a row did not arrive.');
    expect(caught.Text).toContain('http://crm.test/webhooks');
    expect(await mailedAt(id)).toBeInstanceOf(Date);

    expect(await sweep()).toBe(0);
    expect(await catcher.messages()).toHaveLength(1);
  });

  it('leaves what the live send may still be sending, what was dismissed, mailed, or a day old', async () => {
    const recent = await notice('recent', NOTICE_MAIL_GRACE_MS - 30_000);
    await notice('dismissed', 5 * MINUTE, { dismissed: true });
    await notice('mailed', 5 * MINUTE, { mailed: true });
    const stale = await notice('stale', NOTICE_MAIL_MAX_AGE_MS + MINUTE);

    expect(await sweep()).toBe(0);
    expect(await catcher.messages()).toEqual([]);
    expect(await mailedAt(recent)).toBeNull();
    expect(await mailedAt(stale)).toBeNull();
  });

  it('mails each notice once when two workers sweep at the same moment', async () => {
    const titles = ['one', 'two', 'three', 'four', 'five'];
    for (const title of titles) await notice(title, 5 * MINUTE);

    const counts = await Promise.all([sweep(), sweep()]);
    expect(counts[0]! + counts[1]!).toBe(5);
    const subjects = (await catcher.messages()).map((message) => message.Subject).sort();
    expect(subjects).toEqual([...titles].sort());
  });

  it('keeps a notice for the next run when the mail server does not answer, and mails it then', async () => {
    const id = await notice('while away', 5 * MINUTE);
    const away = new Mailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: 'CRM <no-reply@crm.test>' });
    try {
      expect(await sweep(away)).toBe(0);
    } finally {
      away.close();
    }
    expect(await mailedAt(id)).toBeNull();

    expect(await sweep()).toBe(1);
    expect((await catcher.waitForMessage({ to: 'ada@example.test' })).Subject).toBe('while away');
  });
});
