import type { RoleView } from './identity-view';
import type { EntityManager } from 'typeorm';
import { conflictError, notFoundError } from '../shared/app-error';
import { Member } from './member.entity';
import { Role, type ApiReadAccess, type RecordReadAccess } from './role.entity';

export type { RoleView };

export interface RoleInput {
  name?: string;
  apiRead?: ApiReadAccess;
  apiCreate?: boolean;
  apiEdit?: boolean;
  apiDelete?: boolean;
  defaultRecordAccess?: RecordReadAccess;
  recordAccess?: Record<string, RecordReadAccess>;
  restrictedFieldIds?: string[];
}

export function roleView(role: Role, memberCount: number): RoleView {
  const { id, name, builtin, isAdmin, apiRead, apiCreate, apiEdit, apiDelete } = role;
  const { defaultRecordAccess, recordAccess, restrictedFieldIds } = role;
  return {
    ...{ id, name, builtin, isAdmin, apiRead, apiCreate, apiEdit, apiDelete },
    ...{ defaultRecordAccess, recordAccess, restrictedFieldIds, memberCount },
  };
}

export async function listRoles(manager: EntityManager, workspaceId: string): Promise<RoleView[]> {
  const roles = await manager.find(Role, {
    where: { workspaceId },
    order: { createdAt: 'ASC', name: 'ASC' },
  });
  const counts = await manager
    .createQueryBuilder(Member, 'm')
    .select('m.role_id', 'roleId')
    .addSelect('count(*)::int', 'count')
    .where('m.workspace_id = :workspaceId', { workspaceId })
    .groupBy('m.role_id')
    .getRawMany<{ roleId: string; count: number }>();
  const countOf = new Map(counts.map((row) => [row.roleId, row.count]));
  return roles.map((role) => roleView(role, countOf.get(role.id) ?? 0));
}

/** A new custom role. Unless told otherwise it starts with Read access None and no boxes. */
export async function createRole(
  manager: EntityManager,
  workspaceId: string,
  input: RoleInput & { name: string },
): Promise<RoleView> {
  await assertNameFree(manager, workspaceId, input.name);
  const role = await manager.save(
    manager.create(Role, {
      workspaceId,
      name: input.name.trim(),
      builtin: null,
      isAdmin: false,
      apiRead: input.apiRead ?? 'none',
      apiCreate: input.apiCreate ?? false,
      apiEdit: input.apiEdit ?? false,
      apiDelete: input.apiDelete ?? false,
      defaultRecordAccess: input.defaultRecordAccess ?? 'all',
      recordAccess: input.recordAccess ?? {},
      restrictedFieldIds: input.restrictedFieldIds ?? [],
    }),
  );
  return roleView(role, 0);
}

/** Changes a custom role; members holding it get the new rights on their next call. */
export async function updateRole(
  manager: EntityManager,
  workspaceId: string,
  roleId: string,
  input: RoleInput,
): Promise<RoleView> {
  const role = await manager.findOneBy(Role, { id: roleId, workspaceId });
  if (!role) throw notFoundError('Role not found.', 'roleNotFound');
  if (role.builtin) throw conflictError('Built-in roles cannot be changed.', 'builtinRole');
  if (input.name !== undefined && input.name.trim().toLowerCase() !== role.name.toLowerCase()) {
    await assertNameFree(manager, workspaceId, input.name);
  }
  Object.assign(role, {
    name: input.name?.trim() ?? role.name,
    apiRead: input.apiRead ?? role.apiRead,
    apiCreate: input.apiCreate ?? role.apiCreate,
    apiEdit: input.apiEdit ?? role.apiEdit,
    apiDelete: input.apiDelete ?? role.apiDelete,
    defaultRecordAccess: input.defaultRecordAccess ?? role.defaultRecordAccess,
    recordAccess: input.recordAccess ?? role.recordAccess,
    restrictedFieldIds: input.restrictedFieldIds ?? role.restrictedFieldIds,
  });
  await manager.save(role);
  return (await listRoles(manager, workspaceId)).find((view) => view.id === role.id)!;
}

async function assertNameFree(manager: EntityManager, workspaceId: string, name: string): Promise<void> {
  const taken = await manager
    .createQueryBuilder(Role, 'r')
    .where('r.workspace_id = :workspaceId AND lower(r.name) = lower(:name)', {
      workspaceId,
      name: name.trim(),
    })
    .getExists();
  if (taken) throw conflictError('A role with this name already exists.', 'roleNameTaken', ['name']);
}
