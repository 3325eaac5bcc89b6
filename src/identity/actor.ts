import type { EntityManager } from 'typeorm';
import { Member } from './member.entity';
import { apiPermissions, type ApiPermissions } from './permissions';
import { Role } from './role.entity';
import { User } from './user.entity';
import { Workspace } from './workspace.entity';

/** Who is acting, where, with which role: read fresh on every request, never cached. */
export interface Actor {
  user: User;
  workspace: Workspace;
  member: Member;
  role: Role;
  permissions: ApiPermissions;
}

/** The actor for `userId` in `workspaceId`, or undefined when the user is not a member there. */
export async function loadActor(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<Actor | undefined> {
  const member = await manager.findOneBy(Member, { workspaceId, userId });
  if (!member) return undefined;
  // One after another: `manager` may be a transaction's, which has a single connection.
  const user = await manager.findOneByOrFail(User, { id: userId });
  const workspace = await manager.findOneByOrFail(Workspace, { id: workspaceId });
  const role = await manager.findOneByOrFail(Role, { id: member.roleId, workspaceId });
  return { user, workspace, member, role, permissions: apiPermissions(role) };
}
