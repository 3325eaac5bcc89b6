import type { Context } from 'koa';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { entityFromRow } from '../db/entity-from-row';
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

declare module 'koa' {
  interface DefaultState {
    /** Set by requireSession (web app) or requireApiKey (REST, MCP). */
    actor?: Actor;
    sessionToken?: string;
  }
}

/**
 * The member joined with their user, workspace and role, as one select whose rows actorFromRow
 * reads. A caller may join more (an API key) so that authenticating stays one query.
 */
export function actorQuery(manager: EntityManager): SelectQueryBuilder<Member> {
  return manager
    .createQueryBuilder(Member, 'm')
    .innerJoin(User, 'u', 'u.id = m.user_id')
    .innerJoin(Workspace, 'w', 'w.id = m.workspace_id')
    .innerJoin(Role, 'r', 'r.id = m.role_id AND r.workspace_id = m.workspace_id')
    .select(['m', 'u', 'w', 'r']);
}

/** The actor in a row of actorQuery. */
export function actorFromRow(manager: EntityManager, raw: Record<string, unknown>): Actor {
  const role = entityFromRow(manager, Role, raw, 'r');
  return {
    member: entityFromRow(manager, Member, raw, 'm'),
    user: entityFromRow(manager, User, raw, 'u'),
    workspace: entityFromRow(manager, Workspace, raw, 'w'),
    role,
    permissions: apiPermissions(role),
  };
}

/**
 * The actor for `userId` in `workspaceId`, or undefined when the user is not a member there.
 * One query: it runs on every signed-in call, in the dispatcher and in every delivery attempt.
 */
export async function loadActor(
  manager: EntityManager,
  workspaceId: string,
  userId: string,
): Promise<Actor | undefined> {
  const raw = await actorQuery(manager)
    .where('m.workspace_id = :workspaceId AND m.user_id = :userId', { workspaceId, userId })
    .getRawOne<Record<string, unknown>>();
  return raw ? actorFromRow(manager, raw) : undefined;
}

/** The actor set by requireSession or requireApiKey; a route mounted without either is a bug. */
export function actorOf(ctx: Context): Actor {
  if (!ctx.state.actor) throw new Error('route mounted without authentication middleware');
  return ctx.state.actor;
}
