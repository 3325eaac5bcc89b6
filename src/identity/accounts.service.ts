import type { DataSource, EntityManager } from 'typeorm';
import { authenticationError, conflictError } from '../shared/app-error';
import { hashPassword, verifyPassword } from './passwords';
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
