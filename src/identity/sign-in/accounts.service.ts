import type { DataSource, EntityManager } from 'typeorm';
import { AppError, ValidationError, authenticationError, conflictError } from '../../shared/app-error';
import { passwordProblem, type PasswordContext } from '../../shared/credentials/password.rules';
import { normaliseEmail } from './email';
import { dummyPasswordHash, generatePassword, hashPassword, isLegacyHash, verifyPassword } from './passwords';
import { endOtherSessions } from '../sessions/sessions.service';
import type { SignInThrottle } from './sign-in-throttle';
import { User } from '../user.entity';
import type { Workspace } from '../workspace.entity';
import type { IdentityHooks } from '../identity-hooks';
import { countWorkspaceCreated, createWorkspace } from '../workspaces.service';

export { normaliseEmail };

/**
 * The password rule with who the password is for (their email and name are refused as one): for
 * the paths whose request schema cannot know them (change password, members, the CLI, ADMIN_PASSWORD).
 */
export function assertPasswordAllowed(password: string, context: PasswordContext, path: string[]): void {
  const problem = passwordProblem(password, context);
  if (problem) throw ValidationError.of(problem.message, problem.customCode, path);
}

/**
 * A new user with a new workspace in which the user is Admin (docs/app-api.md#routes). The
 * password is hashed before the email is looked up, so a taken email is answered no sooner than
 * the scrypt work of a real sign-up (the route counts every attempt against the client address).
 */
export async function signUp(
  dataSource: DataSource,
  input: { name: string; email: string; password: string; workspaceName: string },
  hooks: IdentityHooks,
): Promise<{ user: User; workspace: Workspace }> {
  const passwordHash = await hashPassword(input.password);
  return dataSource.transaction(async (manager) => {
    // Unverified until the e-mailed link is opened (issue 34: account pre-claim).
    const user = await createUser(manager, {
      name: input.name,
      email: input.email,
      passwordHash,
      verified: false,
    });
    await countWorkspaceCreated(manager, user.id);
    const workspace = await createWorkspace(
      manager,
      { name: input.workspaceName, adminUserId: user.id, createdBy: user.id },
      hooks,
    );
    return { user, workspace };
  });
}

/**
 * A new account. `verified`: whether the address is proven at creation (an operator's act, or an
 * e-mailed link that reached it); a signed-up account is not, and can do nothing until it is.
 */
export async function createUser(
  manager: EntityManager,
  input: { name: string; email: string; passwordHash: string; verified: boolean },
): Promise<User> {
  const email = normaliseEmail(input.email);
  if (await manager.existsBy(User, { email })) {
    throw conflictError('An account with this email already exists.', 'emailTaken', ['email']);
  }
  return manager.save(
    manager.create(User, {
      name: input.name.trim(),
      email,
      passwordHash: input.passwordHash,
      emailVerifiedAt: input.verified ? new Date() : null,
    }),
  );
}

export interface OperatorAddedPerson {
  /** Set only when the person is new and no password was given: print it once. */
  generatedPassword?: string;
  /** The existing user, or the new one created in the caller's transaction. */
  userIn: (manager: EntityManager) => Promise<User>;
}

/**
 * A person an operator adds (the CLI, ADMIN_PASSWORD): the user with this email if there is one;
 * otherwise a new one, verified because the operator vouches for the address, with the given
 * password (which follows the rule, refused at `passwordField`) or a generated one.
 */
export async function operatorAddedPerson(
  dataSource: DataSource,
  person: { email: string; name: string; password?: string },
  passwordField: string,
): Promise<OperatorAddedPerson> {
  const { email, name, password } = person;
  const existing = await dataSource.manager.findOneBy(User, { email });
  if (existing) return { userIn: async () => existing };
  if (password) assertPasswordAllowed(password, { email, name }, [passwordField]);
  const generatedPassword = password ? undefined : generatePassword({ email, name });
  const passwordHash = await hashPassword(password ?? generatedPassword!);
  return {
    generatedPassword,
    userIn: (manager) => createUser(manager, { email, name, passwordHash, verified: true }),
  };
}

/**
 * The user for these credentials. An unknown email takes the same path as a wrong password: the
 * same throttle, one scrypt check (against a dummy hash), the same refusal, so neither the answer
 * nor its time tells whether an account exists. A locked email or address is refused before any
 * check (429 `signInThrottled`); with `device` (a device cookie valid for this email) only that
 * device's own lock counts.
 */
export async function signIn(
  dataSource: DataSource,
  throttle: SignInThrottle,
  input: { email: string; password: string; ip: string; device?: string },
): Promise<User> {
  const subject = { email: input.email, ip: input.ip, device: input.device };
  const user = await throttle.guard(subject, async () => {
    const found = await dataSource.manager.findOneBy(User, { email: normaliseEmail(input.email) });
    const matches = await verifyPassword(input.password, found?.passwordHash ?? (await dummyPasswordHash()));
    return matches ? (found ?? undefined) : undefined;
  });
  if (!user) throw authenticationError('The email or password is wrong.', 'invalidCredentials');
  if (isLegacyHash(user.passwordHash)) {
    // Stored before passwords were normalised: now proven, it is hashed as every new one is.
    await dataSource.manager.update(
      User,
      { id: user.id },
      { passwordHash: await hashPassword(input.password) },
    );
  }
  return user;
}

/**
 * Replaces the user's password once the current one is proven, and signs out every other session
 * of the user (a browser left signed in elsewhere, or one an attacker holds), keeping the one
 * that asked. API keys are separate credentials and keep working (docs/api.md#permissions).
 * A wrong current password changes nothing: 403 `currentPasswordWrong`, not 401, which would
 * mean "this session ended". Guesses meet a lock of their own (per user), and count against the
 * account as failed sign-ins do; the account's lock, which strangers can set, does not refuse it.
 */
export async function changePassword(
  dataSource: DataSource,
  throttle: SignInThrottle,
  input: { userId: string; currentPassword: string; newPassword: string; sessionToken: string },
): Promise<void> {
  const user = await dataSource.manager.findOneByOrFail(User, { id: input.userId });
  assertPasswordAllowed(input.newPassword, { email: user.email, name: user.name }, ['newPassword']);
  const proven = await throttle.guardCurrentPassword({ userId: user.id, email: user.email }, async () =>
    (await verifyPassword(input.currentPassword, user.passwordHash)) ? user : undefined,
  );
  if (!proven) {
    throw new AppError('authorization', [
      {
        code: 'authorization',
        path: ['currentPassword'],
        message: 'The current password is wrong.',
        customCode: 'currentPasswordWrong',
      },
    ]);
  }
  const passwordHash = await hashPassword(input.newPassword);
  await dataSource.transaction(async (manager) => {
    await manager.update(User, { id: user.id }, { passwordHash });
    await endOtherSessions(manager, user.id, input.sessionToken);
  });
}
