import type { TestMailCatcher } from './mail-catcher';
import { VERIFY_EMAIL_SUBJECT } from '../../src/identity/email-proof/proof-mail';

/**
 * Which mail catcher catches the mail of the app at a base URL, so helpers that take only a base
 * URL (WebClient.signUp, the browser helpers) can follow an e-mailed link as a person would.
 */
const mailboxes = new Map<string, TestMailCatcher>();

export function registerMailbox(baseUrl: string, catcher: TestMailCatcher): void {
  mailboxes.set(baseUrl, catcher);
}

export function unregisterMailbox(baseUrl: string): void {
  mailboxes.delete(baseUrl);
}

export function mailboxOf(baseUrl: string): TestMailCatcher {
  const catcher = mailboxes.get(baseUrl);
  if (!catcher) throw new Error(`No mail catcher for ${baseUrl}: start the app with startTestApp`);
  return catcher;
}

/** The token of the newest link to `page` (`/app/<page>?token=…`) in a message's text. */
export function tokenIn(text: string, page: string): string {
  const match = new RegExp(`/app/${page}\\?token=([A-Za-z0-9_%-]+)`).exec(text);
  if (!match) throw new Error(`No /app/${page} link in: ${text}`);
  return decodeURIComponent(match[1]!);
}

/** The token of the newest "confirm your address" mail to `email`, read from the real catcher. */
export async function verificationToken(baseUrl: string, email: string): Promise<string> {
  const message = await mailboxOf(baseUrl).waitForMessage({ to: email, subject: VERIFY_EMAIL_SUBJECT });
  return tokenIn(message.Text, 'verify-email');
}

/** The whole "confirm your address" link of the newest such mail to `email`, as a person clicks it. */
export async function verificationLink(baseUrl: string, email: string): Promise<string> {
  const message = await mailboxOf(baseUrl).waitForMessage({ to: email, subject: VERIFY_EMAIL_SUBJECT });
  const match = /https?:\/\/\S+\/app\/verify-email\?token=\S+/.exec(message.Text);
  if (!match) throw new Error(`No verify-email link in: ${message.Text}`);
  return match[0];
}
