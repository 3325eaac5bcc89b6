import type { MailMessage } from '../../mail/mailer';

/**
 * The messages that carry a link, as the features write them. The link is the whole secret: the
 * text says what opening it does, and what to do when the reader did not ask for it.
 */
export const VERIFY_EMAIL_SUBJECT = 'Confirm your e-mail address';
export const RESET_PASSWORD_SUBJECT = 'Reset your password';
/** The owner's notice that failed sign-ins locked the account (lock-notice.ts). */
export const ACCOUNT_LOCKED_SUBJECT = 'Sign-ins to your account are being refused';

export function verifyEmailMessage(to: string, name: string, link: string): MailMessage {
  return {
    to,
    subject: VERIFY_EMAIL_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'Open this link to confirm that this address is yours (it works once, for 24 hours):',
      '',
      link,
      '',
      'Until then the account can do nothing. If you did not sign up, ignore this message:',
      'whoever did cannot use the account without this link.',
    ].join('\n'),
  };
}

export function resetPasswordMessage(to: string, name: string, link: string): MailMessage {
  return {
    to,
    subject: RESET_PASSWORD_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'Open this link to choose a new password (it works once, for one hour):',
      '',
      link,
      '',
      'Choosing a new password signs the account out everywhere. If you did not ask for this,',
      'ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * Failed sign-ins locked the account: what it means, and what the owner can do. It carries no
 * token (the page asks for a reset link as anyone can), so a forwarded notice opens nothing.
 */
export function accountLockedMessage(to: string, name: string, forgotPasswordPage: string): MailMessage {
  return {
    to,
    subject: ACCOUNT_LOCKED_SUBJECT,
    text: [
      `Hello ${name},`,
      '',
      'Someone has tried to sign in to your account with wrong passwords, several times in a row, so',
      'sign-ins to it are now refused for a while from browsers that have not signed in to it before.',
      '',
      'If it was you, wait a few minutes and try again. A browser you have signed in with before, or',
      'in which you opened a link this service mailed you, still signs in with the right password.',
      '',
      'If it was not you, someone may be guessing your password. You can choose a new one here:',
      '',
      forgotPasswordPage,
      '',
      'This message is sent at most once an hour, however many attempts follow.',
    ].join('\n'),
  };
}

/** A page of the web app with the token in its query, on the service's public address. */
export const linkTo = (publicUrl: string, page: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/app/${page}?token=${encodeURIComponent(token)}`;
