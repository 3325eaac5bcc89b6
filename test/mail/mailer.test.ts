import { Mailer } from '../../src/mail/mailer';
import { startTestMailCatcher, type TestMailCatcher } from '../helpers/mail-catcher';
import { freePort } from '../helpers/ports';

/** The mailer against a real SMTP server: the mail catcher `npm start` runs (Mailpit). */
describe('Mailer', () => {
  let catcher: TestMailCatcher;
  let sut: Mailer;

  beforeAll(async () => {
    catcher = await startTestMailCatcher();
    sut = new Mailer({ url: catcher.smtpUrl, from: 'CRM <no-reply@crm.test>' });
  });
  afterAll(async () => {
    sut?.close();
    await catcher?.stop();
  });

  it('sends a message the SMTP server receives whole: from, to, subject, text and HTML', async () => {
    const link = 'http://localhost:3000/verify?token=AbCdEf0123456789';
    const sent = await sut.send({
      to: 'ada@example.test',
      subject: 'Confirm your e-mail address — CRM',
      text: `Open this link to confirm your address:\n${link}\n`,
      html: `<p>Open <a href="${link}">this link</a> to confirm your address.</p>`,
    });

    const caught = await catcher.waitForMessage({ to: 'ada@example.test' });
    expect(`<${caught.MessageID}>`).toBe(sent.messageId);
    expect(caught.From).toEqual({ Name: 'CRM', Address: 'no-reply@crm.test' });
    expect(caught.To).toEqual([{ Name: '', Address: 'ada@example.test' }]);
    // Non-ASCII subjects travel as encoded words and come back as written.
    expect(caught.Subject).toBe('Confirm your e-mail address — CRM');
    expect(caught.Text.replace(/\r\n/g, '\n')).toBe(`Open this link to confirm your address:\n${link}\n`);
    expect(caught.HTML).toContain(`<a href="${link}">this link</a>`);
  });

  it('sends text only when there is no HTML, and each message to its own recipient', async () => {
    await sut.send({ to: 'grace@example.test', subject: 'First', text: 'one' });
    await sut.send({ to: 'linus@example.test', subject: 'Second', text: 'two' });

    const grace = await catcher.waitForMessage({ to: 'grace@example.test', subject: 'First' });
    const linus = await catcher.waitForMessage({ to: 'linus@example.test', subject: /^Sec/ });
    expect(grace.Text.trim()).toBe('one');
    expect(grace.HTML).toBe('');
    expect(linus.Text.trim()).toBe('two');
    expect(linus.To.map((address) => address.Address)).toEqual(['linus@example.test']);
  });

  it('rejects when no SMTP server answers, within its connection timeout', async () => {
    const nowhere = new Mailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: 'x@crm.test' });
    try {
      await expect(nowhere.send({ to: 'ada@example.test', subject: 's', text: 't' })).rejects.toThrow(
        /ECONNREFUSED/,
      );
    } finally {
      nowhere.close();
    }
  });

  it('empties the inbox on clear, so a test reads only its own messages', async () => {
    await sut.send({ to: 'ada@example.test', subject: 'Before clear', text: 'x' });
    await catcher.waitForMessage({ to: 'ada@example.test', subject: 'Before clear' });
    await catcher.clear();
    expect(await catcher.messages()).toEqual([]);
  });

  it('waits for a message only as long as asked, naming what it waited for', async () => {
    await expect(catcher.waitForMessage({ to: 'nobody@example.test' }, 300)).rejects.toThrow(
      'timed out waiting until a message to nobody@example.test is caught',
    );
  });
});
