import type { DataSource, EntityManager } from 'typeorm';
import { BUILTIN_ROLE_DEFINITIONS } from './builtin-roles';
import type { IdentityHooks } from './identity-hooks';
import { Member } from './member.entity';
import { Role } from './role.entity';
import { Workspace, type PlanState } from './workspace.entity';

/**
 * A new workspace with the three built-in roles and the built-in record model, where
 * `adminUserId` is an Active Admin.
 * Call it inside a transaction: it writes several rows.
 */
export async function createWorkspace(
  manager: EntityManager,
  input: { name: string; adminUserId: string; planState?: PlanState },
  hooks: Pick<IdentityHooks, 'workspaceCreatedHooks'>,
): Promise<Workspace> {
  const workspace = await manager.save(
    manager.create(Workspace, { name: input.name, planState: input.planState ?? 'none' }),
  );
  const roles = await manager.save(
    BUILTIN_ROLE_DEFINITIONS.map((definition) =>
      manager.create(Role, { ...definition, workspaceId: workspace.id }),
    ),
  );
  const admin = roles.find((role) => role.builtin === 'admin')!;
  await manager.save(
    manager.create(Member, {
      workspaceId: workspace.id,
      userId: input.adminUserId,
      roleId: admin.id,
      status: 'active',
    }),
  );
  for (const workspaceCreated of hooks.workspaceCreatedHooks) await workspaceCreated(manager, workspace.id);
  return workspace;
}

/**
 * Another workspace for a signed-in user, made by the same code as sign-up's first one
 * (`createWorkspace` with its defaults: no plan yet, onboarding pending, the built-in roles, every
 * workspaceCreatedHook), with the user as its Admin.
 */
export async function addWorkspaceForUser(
  dataSource: DataSource,
  input: { userId: string; name: string },
  hooks: Pick<IdentityHooks, 'workspaceCreatedHooks'>,
): Promise<Workspace> {
  return dataSource.transaction((manager) =>
    createWorkspace(manager, { name: input.name, adminUserId: input.userId }, hooks),
  );
}

/** The workspaces a user belongs to, oldest membership first. */
export async function workspacesOf(manager: EntityManager, userId: string): Promise<Workspace[]> {
  return manager
    .createQueryBuilder(Workspace, 'w')
    .innerJoin(Member, 'm', 'm.workspace_id = w.id AND m.user_id = :userId', { userId })
    .orderBy('m.created_at', 'ASC')
    .getMany();
}
