import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mailCatcherBinary } from '../../src/embedded/mail-catcher-binary';
import { startMailCatcher } from '../../src/embedded/mail-catcher';
import { Mailer } from '../../src/mail/mailer';
import { freePort } from '../helpers/ports';

/** The mail catcher as `npm start` runs it (src/embedded/mail-catcher.ts): Mailpit itself. */
describe('startMailCatcher', () => {
  let dataDir: string;
  const binary = mailCatcherBinary();

  beforeAll(() => {
    if (!binary) throw new Error('No Mailpit: run `npm run setup`, or set MAILPIT_BINARY');
    dataDir = mkdtempSync(join(tmpdir(), 'crm-mail-catcher-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const send = async (smtpUrl: string, subject: string) => {
    const mailer = new Mailer({ url: smtpUrl, from: 'crm@example.test' });
    try {
      await mailer.send({ to: 'ada@example.test', subject, text: 'hello' });
    } finally {
      mailer.close();
    }
  };
  const subjects = async (apiUrl: string) =>
    ((await (await fetch(`${apiUrl}/messages`)).json()) as { messages: { Subject: string }[] }).messages.map(
      (message) => message.Subject,
    );

  it('keeps the messages across a restart in its data folder, and frees its ports on stop', async () => {
    const ports = { smtpPort: await freePort(), uiPort: await freePort() };
    const first = await startMailCatcher({ binary: binary!, dataDir, ...ports, keepMessages: true });
    expect(first.smtpUrl).toBe(`smtp://127.0.0.1:${ports.smtpPort}`);
    expect(first.inboxUrl).toBe(`http://localhost:${ports.uiPort}/`);
    await send(first.smtpUrl, 'Before the restart');
    await first.stop();
    await expect(fetch(`${first.apiUrl}/messages`)).rejects.toThrow();

    const second = await startMailCatcher({ binary: binary!, dataDir, ...ports, keepMessages: true });
    try {
      expect(await subjects(second.apiUrl)).toEqual(['Before the restart']);
    } finally {
      await second.stop();
    }
  });

  it('says why when it cannot start (a port taken), with the end of its log', async () => {
    const blocker: Server = createServer();
    const taken = await freePort();
    await new Promise<void>((resolve) => blocker.listen(taken, '127.0.0.1', resolve));
    try {
      await expect(
        startMailCatcher({
          binary: binary!,
          dataDir,
          smtpPort: taken,
          uiPort: await freePort(),
          keepMessages: false,
        }),
      ).rejects.toThrow(/The mail catcher exited \(\d+\); see .*mailpit\.log:\n[^]*address already in use/);
    } finally {
      blocker.close();
    }
  });
});
