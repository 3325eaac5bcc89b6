import type { DataSource, EntityManager } from 'typeorm';
import { ValidationError } from '../../shared/app-error';
import { assertPasswordAllowed, normaliseEmail } from '../sign-in/accounts.service';
import { generatePassword, hashPassword } from '../sign-in/passwords';
import type { SignInThrottle } from '../sign-in/sign-in-throttle';
import { Session } from '../sessions/session.entity';
import { User } from '../user.entity';
import { sendMail, type MailDeps } from './email-proof.service';
import { consumeEmailToken, hashEmailToken, issueEmailToken } from './email-tokens';
import { linkTo, resetPasswordMessage } from './proof-mail';

/**
 * Asks for a password-reset link (issue 34). Counted per email and per client address whether or
 * not the account exists; the answer is the same either way, and it leaves before anything that
 * depends on the account: looking it up, issuing the token and mailing run after the answer, so
 * neither the body nor the time tells whether an account exists.
 */
export async function requestPasswordReset(
  deps: MailDeps & { throttle: SignInThrottle },
  input: { email: string; ip: string },
): Promise<void> {
  await deps.throttle.passwordReset(input);
  void mailResetLink(deps, normaliseEmail(input.email)).catch((error: unknown) =>
    deps.logger.error({ err: error }, 'a password-reset link could not be issued'),
  );
}

async function mailResetLink(deps: MailDeps, email: string): Promise<void> {
  const user = await deps.dataSource.manager.findOneBy(User, { email });
  if (!user) return;
  const token = await issueEmailToken(deps.dataSource.manager, user.id, 'reset-password');
  await sendMail(
    deps,
    resetPasswordMessage(user.email, user.name, linkTo(deps.publicUrl(), 'reset-password', token)),
  );
}

const invalidLink = () =>
  ValidationError.of(
    'This link is not valid any more: it was used, replaced by a newer one, or it expired.',
    'tokenInvalid',
    ['token'],
  );

/**
 * Sets the password of the link's user. The link proved the address, so the account becomes
 * verified; every session of the user ends (one an attacker holds too: this is how the real owner
 * takes back a pre-claimed account), and the account's sign-in lockout is forgotten. The password
 * rule is checked before the token is spent, so a refused password leaves the link usable.
 * Answers the account's email, for the device cookie of the browser that opened the link.
 */
export async function completePasswordReset(
  dataSource: DataSource,
  throttle: SignInThrottle,
  input: { token: string; newPassword: string },
): Promise<{ email: string }> {
  const [pending] = (await dataSource.query(
    `SELECT user_id FROM email_tokens
     WHERE token_hash = $1 AND purpose = 'reset-password' AND used_at IS NULL AND expires_at > now()`,
    [hashEmailToken(input.token)],
  )) as { user_id: string }[];
  const user = pending && (await dataSource.manager.findOneBy(User, { id: pending.user_id }));
  if (!user) throw invalidLink();
  assertPasswordAllowed(input.newPassword, { email: user.email, name: user.name }, ['newPassword']);
  const passwordHash = await hashPassword(input.newPassword);
  await dataSource.transaction(async (manager) => {
    // The race-safe spend: of two requests with this token, one changes the password.
    const userId = await consumeEmailToken(manager, input.token, 'reset-password');
    if (userId !== user.id) throw invalidLink();
    await setPasswordAsProven(manager, user.id, passwordHash);
  });
  await throttle.clearAccount(user.email);
  return { email: user.email };
}

/**
 * The operator's reset (`npm run cli -- reset-password`): a generated password, printed once by the
 * CLI; the account counts as verified (the operator vouches for it) and every session ends.
 */
export async function resetPasswordByOperator(
  dataSource: DataSource,
  throttle: SignInThrottle,
  email: string,
): Promise<{ email: string; password: string } | undefined> {
  const user = await dataSource.manager.findOneBy(User, { email: normaliseEmail(email) });
  if (!user) return undefined;
  const password = generatePassword({ email: user.email, name: user.name });
  const passwordHash = await hashPassword(password);
  await dataSource.transaction(async (manager) => {
    await setPasswordAsProven(manager, user.id, passwordHash);
    // Links mailed before are spent: the operator's reset supersedes them.
    await manager.query(
      `UPDATE email_tokens SET used_at = now() WHERE user_id = $1 AND purpose = 'reset-password' AND used_at IS NULL`,
      [user.id],
    );
  });
  await throttle.clearAccount(user.email);
  return { email: user.email, password };
}

async function setPasswordAsProven(
  manager: EntityManager,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await manager.query(
    `UPDATE users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1`,
    [userId, passwordHash],
  );
  await manager.delete(Session, { userId });
}
