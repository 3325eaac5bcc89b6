import type { CaughtMessage, TestMailCatcher } from './mail-catcher';
import { VERIFY_EMAIL_SUBJECT } from '../../src/identity/email-proof/proof-mail';
import { INVITATION_SUBJECT_PREFIX } from '../../src/identity/invitations/invitation-mail';
import { eventually } from './eventually';

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

/**
 * The invitation mail to `email` that `invite` makes the service send, read from the real catcher:
 * only a message caught after `invite` started counts, so an older invitation to the same address
 * (another workspace's, or a replaced one) is never taken for it.
 */
async function invitationMailSentBy(
  baseUrl: string,
  email: string,
  invite: () => Promise<unknown>,
): Promise<CaughtMessage> {
  const catcher = mailboxOf(baseUrl);
  const to = email.toLowerCase();
  const isInvitation = (message: { To: { Address: string }[]; Subject: string }) =>
    message.Subject.startsWith(INVITATION_SUBJECT_PREFIX) &&
    message.To.some((address) => address.Address.toLowerCase() === to);
  const before = new Set((await catcher.messages()).filter(isInvitation).map((message) => message.ID));
  await invite();
  let id: string | undefined;
  await eventually(async () => {
    id = (await catcher.messages()).find((message) => isInvitation(message) && !before.has(message.ID))?.ID;
    return id !== undefined;
  }, `an invitation to ${email} is caught`);
  const response = await fetch(`${catcher.apiUrl}/message/${id}`);
  if (!response.ok) throw new Error(`GET /message/${id}: ${response.status}`);
  return (await response.json()) as CaughtMessage;
}

/** The token of the invitation mail to `email` that `invite` makes the service send (see above). */
export async function invitationTokenSentBy(
  baseUrl: string,
  email: string,
  invite: () => Promise<unknown>,
): Promise<string> {
  return tokenIn((await invitationMailSentBy(baseUrl, email, invite)).Text, 'accept-invitation');
}

/** The whole accept-invitation link of the mail `invite` makes the service send, as a person clicks it. */
export async function invitationLinkSentBy(
  baseUrl: string,
  email: string,
  invite: () => Promise<unknown>,
): Promise<string> {
  const text = (await invitationMailSentBy(baseUrl, email, invite)).Text;
  const match = /https?:\/\/\S+\/app\/accept-invitation\?token=\S+/.exec(text);
  if (!match) throw new Error(`No accept-invitation link in: ${text}`);
  return match[0];
}
