import Router from '@koa/router';
import type { Context } from 'koa';
import type { Pool } from 'pg';
import type { Config } from '../config';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { authorizationError, notFoundError } from '../shared/app-error';
import type { MailDeps } from './email-proof/email-proof.service';
import { invite, listInvitations, revokeInvitation } from './invitations/invitations.service';
import { InvitationThrottle } from './invitations/invitation-throttle';
import { actorOf } from './actor';
import { parse, parseId } from '../http/validate';
import type { Actor } from './actor';
import { createRoleBody, inviteBody, updateMemberBody, updateRoleBody } from './identity.schemas';
import type { IdentityHooks } from './identity-hooks';
import { listMembers, removeMember, updateMember } from './members.service';
import { createRole, listRoles, updateRole } from './roles.service';

const memberNotFound = () => notFoundError('Member not found.', 'memberNotFound');
const roleNotFound = () => notFoundError('Role not found.', 'roleNotFound');

/**
 * Settings → Members and Settings → Roles: Admin only (docs/app-api.md#routes). A person joins the
 * workspace from the web app only by an invitation they accept (issue 34): there is no route that
 * adds a member at once (the operator CLI's `add-member` is the only direct add).
 */
export function workspaceAdminRoutes(deps: {
  dataSource: DataSource;
  hooks: IdentityHooks;
  mail: MailDeps;
  config: Pick<Config, 'INVITATIONS_PER_INVITER_PER_HOUR' | 'INVITATIONS_PER_ADDRESS_PER_DAY'>;
}): Router {
  const { dataSource } = deps;
  const router = new Router();
  // Counted in PostgreSQL, so every API process shares the bound (invitation-throttle.ts).
  const invitations = new InvitationThrottle(
    (dataSource.driver as PostgresDriver).master as Pool,
    deps.config,
  );

  const admin = (ctx: Context): Actor => {
    const actor = actorOf(ctx);
    if (!actor.permissions.manageWorkspace) {
      throw authorizationError('Only an Admin can manage members and roles.', 'insufficientPermissions');
    }
    return actor;
  };

  router.get('/members', async (ctx) => {
    ctx.body = { data: await listMembers(dataSource.manager, admin(ctx).workspace.id) };
  });

  router.get('/invitations', async (ctx) => {
    ctx.body = { data: await listInvitations(dataSource.manager, admin(ctx).workspace.id) };
  });

  router.post('/invitations', async (ctx) => {
    const actor = admin(ctx);
    const body = parse(inviteBody, ctx.request.body);
    await invitations.count({ inviterId: actor.user.id, email: body.email });
    ctx.status = 201;
    ctx.body = await invite(
      deps.mail,
      actor.workspace.id,
      { id: actor.user.id, name: actor.user.name },
      body,
    );
  });

  router.delete('/invitations/:id', async (ctx) => {
    const actor = admin(ctx);
    const id = parseId(ctx.params.id, () => notFoundError('Invitation not found.', 'invitationNotFound'));
    await revokeInvitation(dataSource.manager, actor.workspace.id, id);
    ctx.status = 204;
  });

  router.patch('/members/:userId', async (ctx) => {
    const actor = admin(ctx);
    const userId = parseId(ctx.params.userId, memberNotFound);
    ctx.body = await updateMember(
      dataSource,
      actor.workspace.id,
      userId,
      parse(updateMemberBody, ctx.request.body),
    );
  });

  router.delete('/members/:userId', async (ctx) => {
    const actor = admin(ctx);
    await removeMember(
      dataSource,
      actor.workspace.id,
      parseId(ctx.params.userId, memberNotFound),
      deps.hooks,
    );
    ctx.status = 204;
  });

  router.get('/roles', async (ctx) => {
    ctx.body = { data: await listRoles(dataSource.manager, admin(ctx).workspace.id) };
  });

  router.post('/roles', async (ctx) => {
    const actor = admin(ctx);
    ctx.status = 201;
    ctx.body = await createRole(
      dataSource.manager,
      actor.workspace.id,
      parse(createRoleBody, ctx.request.body),
    );
  });

  router.patch('/roles/:id', async (ctx) => {
    const actor = admin(ctx);
    const roleId = parseId(ctx.params.id, roleNotFound);
    ctx.body = await updateRole(
      dataSource.manager,
      actor.workspace.id,
      roleId,
      parse(updateRoleBody, ctx.request.body),
    );
  });

  return router;
}
