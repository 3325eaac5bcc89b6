import type { DataSource } from 'typeorm';
import { normaliseEmail, operatorAddedPerson } from './sign-in/accounts.service';
import { Workspace } from './workspace.entity';
import type { IdentityHooks } from './identity-hooks';
import { createWorkspace } from './workspaces.service';

export interface CreatedWorkspace {
  workspace: Workspace;
  adminEmail: string;
  /** Set only when the password was generated: print it once. */
  generatedPassword?: string;
}

/**
 * A workspace with an Admin, for self-hosting (`npm run cli -- create-workspace`) and the first
 * embedded run. An existing user becomes the Admin; otherwise the user is created, with the
 * given password or a generated one.
 */
export async function createWorkspaceWithAdmin(
  dataSource: DataSource,
  input: { name: string; adminEmail: string; adminPassword?: string; adminName?: string },
  hooks: IdentityHooks,
): Promise<CreatedWorkspace> {
  const email = normaliseEmail(input.adminEmail);
  // ADMIN_PASSWORD and --admin-password follow the rule with the admin's own email and name.
  const { generatedPassword, userIn } = await operatorAddedPerson(
    dataSource,
    { email, name: input.adminName ?? 'Admin', password: input.adminPassword },
    'adminPassword',
  );
  const workspace = await dataSource.transaction(async (manager) => {
    const admin = await userIn(manager);
    // The operator's act: no creator, so no person's quota (QUOTA_PER_PERSON) holds it.
    return createWorkspace(
      manager,
      { name: input.name, adminUserId: admin.id, planState: 'active', createdBy: null },
      hooks,
    );
  });
  return { workspace, adminEmail: email, generatedPassword };
}

/** On the first embedded run (no workspace at all yet), a demo workspace and its first admin. */
export async function ensureDemoWorkspace(
  dataSource: DataSource,
  admin: { email?: string; password?: string },
  hooks: IdentityHooks,
): Promise<CreatedWorkspace | undefined> {
  if ((await dataSource.manager.count(Workspace)) > 0) return undefined;
  return createWorkspaceWithAdmin(
    dataSource,
    {
      name: 'Demo workspace',
      adminEmail: admin.email ?? 'admin@example.com',
      adminPassword: admin.password,
    },
    hooks,
  );
}
