import { createTransport, type Transporter } from 'nodemailer';

/** One message, as the features write it: plain text always, HTML optionally. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** The Message-ID header the message went out with. */
  messageId: string;
}

export interface MailerOptions {
  /** `smtp://` or `smtps://`, with `user:password@` when the server asks for them (MAIL_URL). */
  url: string;
  /** The From of every message (MAIL_FROM). */
  from: string;
}

/**
 * Waits for the SMTP server, each in milliseconds. Nodemailer's own defaults (2 min to connect,
 * 10 min of silence) would hold a request for minutes when the server is unreachable.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/**
 * Sends mail over SMTP (docs/mail.md). One connection per message: the service sends a few
 * messages an hour (links to prove an address, invitations, password resets), not a stream.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(private readonly options: MailerOptions) {
    // Settings nodemailer reads from the URL's query (for example `?requireTLS=true`) still apply.
    this.transport = createTransport({ url: options.url, ...TIMEOUTS });
  }

  /** Resolves once the server has accepted the message for delivery; rejects otherwise. */
  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({
      from: this.options.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html === undefined ? {} : { html: message.html }),
    });
    return { messageId: String(info.messageId) };
  }

  /** Checks that the server answers and accepts the credentials, without sending anything. */
  async verify(): Promise<void> {
    await this.transport.verify();
  }

  close(): void {
    this.transport.close();
  }
}
