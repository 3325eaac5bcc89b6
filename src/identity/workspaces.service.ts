import type { DataSource, EntityManager } from 'typeorm';
import { authorizationError } from '../shared/app-error';
import { BUILTIN_ROLE_DEFINITIONS } from './builtin-roles';
import type { IdentityHooks } from './identity-hooks';
import { Member } from './member.entity';
import { Role } from './role.entity';
import { User } from './user.entity';
import { Workspace, type PlanState } from './workspace.entity';

/**
 * A new workspace with the three built-in roles and the built-in record model, where
 * `adminUserId` is an Active Admin.
 * Call it inside a transaction: it writes several rows.
 */
export async function createWorkspace(
  manager: EntityManager,
  input: { name: string; adminUserId: string; planState?: PlanState; createdBy: string | null },
  hooks: Pick<IdentityHooks, 'workspaceCreatedHooks'>,
): Promise<Workspace> {
  const workspace = await manager.save(
    manager.create(Workspace, {
      name: input.name,
      planState: input.planState ?? 'none',
      createdBy: input.createdBy,
    }),
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
 * Counts a workspace a person creates themselves (sign-up's first, the web app's next ones), or
 * refuses it once they have created `limit` (WORKSPACES_PER_PERSON; docs/security.md, "Limits"):
 * 403 `authorization`, `workspaceLimitReached`. Without `limit` it only counts (sign-up: a new
 * person's first is always within the bound). The CLI's workspaces are the operator's act and are
 * not counted.
 *
 * Run it first in the transaction that creates the workspace: one conditional UPDATE, whose row
 * lock makes one person's simultaneous creations wait for each other and see each other's count,
 * and a refusal rolls back before anything is written.
 */
export async function countWorkspaceCreated(
  manager: EntityManager,
  userId: string,
  limit?: number,
): Promise<void> {
  const update = manager
    .createQueryBuilder()
    .update(User)
    .set({ workspacesCreated: () => 'workspaces_created + 1' })
    .where('id = :userId', { userId });
  if (limit !== undefined) update.andWhere('workspaces_created < :limit', { limit });
  const { affected } = await update.execute();
  if (affected === 0) throw workspaceLimitReached(limit!);
}

const workspaceLimitReached = (limit: number) =>
  authorizationError(
    `You have created ${limit} ${limit === 1 ? 'workspace' : 'workspaces'}, the most one person may create here. ` +
      'Ask the service operator if you need another.',
    'workspaceLimitReached',
  );

/**
 * Another workspace for a signed-in user, made by the same code as sign-up's first one
 * (`createWorkspace` with its defaults: no plan yet, onboarding pending, the built-in roles, every
 * workspaceCreatedHook), with the user as its Admin; within the user's bound of workspaces
 * (`limit`, WORKSPACES_PER_PERSON), else 403 `workspaceLimitReached` and nothing written.
 */
export async function addWorkspaceForUser(
  dataSource: DataSource,
  input: { userId: string; name: string; limit: number },
  hooks: Pick<IdentityHooks, 'workspaceCreatedHooks'>,
): Promise<Workspace> {
  // A person at the bound is refused by one read, without waiting for the row lock of a transaction.
  const user = await dataSource.manager.findOne(User, {
    where: { id: input.userId },
    select: { id: true, workspacesCreated: true },
  });
  if (user && user.workspacesCreated >= input.limit) throw workspaceLimitReached(input.limit);
  return dataSource.transaction(async (manager) => {
    await countWorkspaceCreated(manager, input.userId, input.limit);
    return createWorkspace(
      manager,
      { name: input.name, adminUserId: input.userId, createdBy: input.userId },
      hooks,
    );
  });
}

/** The workspaces a user belongs to, oldest membership first. */
export async function workspacesOf(manager: EntityManager, userId: string): Promise<Workspace[]> {
  return manager
    .createQueryBuilder(Workspace, 'w')
    .innerJoin(Member, 'm', 'm.workspace_id = w.id AND m.user_id = :userId', { userId })
    .orderBy('m.created_at', 'ASC')
    .getMany();
}
