import type { DataSource, EntityManager } from 'typeorm';
import { AppError, authenticationError, conflictError } from '../shared/app-error';
import { hashPassword, verifyPassword } from './passwords';
import { endOtherSessions } from './sessions.service';
import { User } from './user.entity';
import type { Workspace } from './workspace.entity';
import type { IdentityHooks } from './identity-hooks';
import { createWorkspace } from './workspaces.service';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** A new user with a new workspace in which the user is Admin (architecture.md: sign-up). */
export async function signUp(
  dataSource: DataSource,
  input: { name: string; email: string; password: string; workspaceName: string },
  hooks: IdentityHooks,
): Promise<{ user: User; workspace: Workspace }> {
  const passwordHash = await hashPassword(input.password);
  return dataSource.transaction(async (manager) => {
    const user = await createUser(manager, { name: input.name, email: input.email, passwordHash });
    const workspace = await createWorkspace(
      manager,
      { name: input.workspaceName, adminUserId: user.id },
      hooks,
    );
    return { user, workspace };
  });
}

export async function createUser(
  manager: EntityManager,
  input: { name: string; email: string; passwordHash: string },
): Promise<User> {
  const email = normaliseEmail(input.email);
  if (await manager.existsBy(User, { email })) {
    throw conflictError('An account with this email already exists.', 'emailTaken', ['email']);
  }
  return manager.save(
    manager.create(User, { name: input.name.trim(), email, passwordHash: input.passwordHash }),
  );
}

/** The user for these credentials; the same refusal for an unknown email and a wrong password. */
export async function signIn(
  dataSource: DataSource,
  input: { email: string; password: string },
): Promise<User> {
  const user = await dataSource.manager.findOneBy(User, { email: normaliseEmail(input.email) });
  if (!user || !(await verifyPassword(input.password, user.passwordHash))) {
    throw authenticationError('The email or password is wrong.', 'invalidCredentials');
  }
  return user;
}

/**
 * Replaces the user's password once the current one is proven, and signs out every other session
 * of the user (a browser left signed in elsewhere, or one an attacker holds), keeping the one
 * that asked. API keys are separate credentials and keep working (spec.md, API key lifecycle).
 * A wrong current password changes nothing: 403 `currentPasswordWrong`, not 401, which would
 * mean "this session ended".
 */
export async function changePassword(
  dataSource: DataSource,
  input: { userId: string; currentPassword: string; newPassword: string; sessionToken: string },
): Promise<void> {
  const user = await dataSource.manager.findOneByOrFail(User, { id: input.userId });
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
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
