import type { MemberAdded, MemberView } from './identity-view';
import type { IdentityHooks } from './identity-hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { conflictError, notFoundError } from '../shared/app-error';
import { normaliseEmail, operatorAddedPerson } from './sign-in/accounts.service';
import { Member, type MemberStatus } from './member.entity';
import { Role } from './role.entity';
import { User } from './user.entity';

export type { MemberView };

export async function listMembers(manager: EntityManager, workspaceId: string): Promise<MemberView[]> {
  const rows = await manager
    .createQueryBuilder(Member, 'm')
    .innerJoin(User, 'u', 'u.id = m.user_id')
    .innerJoin(Role, 'r', 'r.id = m.role_id')
    .select([
      'm.user_id AS "userId"',
      'u.email AS email',
      'u.name AS name',
      'm.role_id AS "roleId"',
      'r.name AS "roleName"',
      'm.status AS status',
      'm.created_at AS "createdAt"',
    ])
    .where('m.workspace_id = :workspaceId', { workspaceId })
    .orderBy('m.created_at', 'ASC')
    .getRawMany<Omit<MemberView, 'createdAt'> & { createdAt: Date }>();
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

async function memberView(manager: EntityManager, workspaceId: string, userId: string): Promise<MemberView> {
  const found = (await listMembers(manager, workspaceId)).find((member) => member.userId === userId);
  if (!found) throw notFoundError('Member not found.', 'memberNotFound');
  return found;
}

async function roleIn(manager: EntityManager, workspaceId: string, roleId: string): Promise<Role> {
  const role = await manager.findOneBy(Role, { id: roleId, workspaceId });
  if (!role) throw notFoundError('Role not found.', 'roleNotFound');
  return role;
}

/**
 * Adds a user to the workspace. An unknown email creates the user with a one-time password,
 * returned once so the admin can hand it over.
 */
export async function addMember(
  dataSource: DataSource,
  workspaceId: string,
  input: { email: string; name?: string; roleId: string; password?: string },
): Promise<MemberAdded> {
  const email = normaliseEmail(input.email);
  const name = input.name?.trim() || email.split('@')[0]!;
  // A given password (the CLI's --password) follows the rule like any other; so does a generated one.
  const person = await operatorAddedPerson(dataSource, { email, name, password: input.password }, 'password');
  const member = await dataSource.transaction(async (manager) => {
    await roleIn(manager, workspaceId, input.roleId);
    const user = await person.userIn(manager);
    if (await manager.existsBy(Member, { workspaceId, userId: user.id })) {
      throw conflictError('This person is already a member of the workspace.', 'alreadyMember', ['email']);
    }
    await manager.insert(Member, { workspaceId, userId: user.id, roleId: input.roleId, status: 'active' });
    return memberView(manager, workspaceId, user.id);
  });
  return input.password ? { member } : { member, temporaryPassword: person.generatedPassword };
}

/** Changes a member's role and/or status; a role change applies on the member's next call. */
export async function updateMember(
  dataSource: DataSource,
  workspaceId: string,
  userId: string,
  input: { roleId?: string; status?: MemberStatus },
): Promise<MemberView> {
  return dataSource.transaction(async (manager) => {
    const member = await lockMember(manager, workspaceId, userId);
    if (input.roleId !== undefined) {
      await roleIn(manager, workspaceId, input.roleId);
      member.roleId = input.roleId;
    }
    if (input.status !== undefined) member.status = input.status;
    await manager.save(member);
    await assertAnActiveAdminRemains(manager, workspaceId);
    return memberView(manager, workspaceId, userId);
  });
}

/**
 * Removes a member. What acted as them in this workspace (their API keys) is revoked in the same
 * transaction by `hooks.membershipEndedHooks`, so it stops working at once (docs/api.md#permissions).
 */
export async function removeMember(
  dataSource: DataSource,
  workspaceId: string,
  userId: string,
  hooks: Pick<IdentityHooks, 'membershipEndedHooks'>,
): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await lockMember(manager, workspaceId, userId);
    for (const membershipEnded of hooks.membershipEndedHooks)
      await membershipEnded(manager, workspaceId, userId);
    await manager.delete(Member, { workspaceId, userId });
    await assertAnActiveAdminRemains(manager, workspaceId);
  });
}

async function lockMember(manager: EntityManager, workspaceId: string, userId: string): Promise<Member> {
  // Serialises membership changes of one workspace, so two admins cannot demote each other at once.
  await manager.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
  const member = await manager.findOneBy(Member, { workspaceId, userId });
  if (!member) throw notFoundError('Member not found.', 'memberNotFound');
  return member;
}

/** The Active members of a workspace whose role is an Admin role (alias `m`). */
export function activeAdminsQuery(manager: EntityManager, workspaceId: string) {
  return manager
    .createQueryBuilder(Member, 'm')
    .innerJoin(Role, 'r', 'r.id = m.role_id')
    .where('m.workspace_id = :workspaceId AND m.status = :status AND r.is_admin', {
      workspaceId,
      status: 'active',
    });
}

async function assertAnActiveAdminRemains(manager: EntityManager, workspaceId: string): Promise<void> {
  const admins = await activeAdminsQuery(manager, workspaceId).getCount();
  if (admins === 0) {
    throw conflictError('The workspace must keep at least one active Admin.', 'lastAdmin');
  }
}
