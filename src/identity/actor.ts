import type { Context } from 'koa';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { entityFromRow } from '../db/entity-from-row';
import { PreparedSelect } from '../db/prepared';
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
  return joinMemberParts(manager.createQueryBuilder(Member, 'm'), 'inner').select(['m', 'u', 'w', 'r']);
}

/**
 * Another query with the member `on` a condition (optional: a left join) and their user,
 * workspace and role, for actorFromRow; so a read that needs a person's current access as well
 * stays one query.
 */
export function withActor<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  on: string,
): SelectQueryBuilder<T> {
  return joinMemberParts(query.leftJoin(Member, 'm', on), 'left').addSelect(['m', 'u', 'w', 'r']);
}

function joinMemberParts<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  join: 'inner' | 'left',
): SelectQueryBuilder<T> {
  const joined = join === 'inner' ? query.innerJoin.bind(query) : query.leftJoin.bind(query);
  joined(User, 'u', 'u.id = m.user_id');
  joined(Workspace, 'w', 'w.id = m.workspace_id');
  joined(Role, 'r', 'r.id = m.role_id AND r.workspace_id = m.workspace_id');
  return query;
}

/** The actor in a row of withActor, or undefined when the left join found no member. */
export function optionalActorFromRow(
  manager: EntityManager,
  raw: Record<string, unknown>,
): Actor | undefined {
  return raw.m_user_id === null || raw.m_user_id === undefined ? undefined : actorFromRow(manager, raw);
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
  const raw = await actorOfMember.first(manager, { workspaceId, userId });
  return raw ? actorFromRow(manager, raw) : undefined;
}

const actorOfMember = new PreparedSelect(['workspaceId', 'userId'] as const, (manager, parameters) =>
  actorQuery(manager).where('m.workspace_id = :workspaceId AND m.user_id = :userId', parameters),
);

/** The actor set by requireSession or requireApiKey; a route mounted without either is a bug. */
export function actorOf(ctx: Context): Actor {
  if (!ctx.state.actor) throw new Error('route mounted without authentication middleware');
  return ctx.state.actor;
}
