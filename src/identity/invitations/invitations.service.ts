import type { DataSource, EntityManager } from 'typeorm';
import { authorizationError, conflictError, notFoundError, ValidationError } from '../../shared/app-error';
import { sendMail, type MailDeps } from '../email-proof/email-proof.service';
import { hashEmailToken, newEmailToken } from '../email-proof/email-tokens';
import { linkTo } from '../email-proof/proof-mail';
import type { InvitationPreview, InvitationView } from '../identity-view';
import { Member } from '../member.entity';
import { Role } from '../role.entity';
import { assertPasswordAllowed, createUser, normaliseEmail } from '../sign-in/accounts.service';
import { hashPassword } from '../sign-in/passwords';
import { User } from '../user.entity';
import { Workspace } from '../workspace.entity';
import { invitationMessage } from './invitation-mail';

/** An invitation's link works for 7 days (issue 34). */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const invalidLink = () =>
  ValidationError.of(
    'This invitation is not valid any more: it was accepted, revoked, replaced by a newer one, or it expired.',
    'invitationInvalid',
    ['token'],
  );

const VIEW_COLUMNS = `i.id, i.email, i.role_id AS "roleId", r.name AS "roleName", u.name AS "invitedBy",
  i.created_at AS "createdAt", i.expires_at AS "expiresAt"`;

type ViewRow = Omit<InvitationView, 'createdAt' | 'expiresAt'> & { createdAt: Date; expiresAt: Date };
const toView = (row: ViewRow): InvitationView => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** The workspace's pending invitations (not accepted, not expired), newest first. */
export async function listInvitations(
  manager: EntityManager,
  workspaceId: string,
): Promise<InvitationView[]> {
  const rows = (await manager.query(
    `SELECT ${VIEW_COLUMNS} FROM invitations i
     JOIN roles r ON r.id = i.role_id
     LEFT JOIN users u ON u.id = i.invited_by
     WHERE i.workspace_id = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
     ORDER BY i.created_at DESC, i.id`,
    [workspaceId],
  )) as ViewRow[];
  return rows.map(toView);
}

/**
 * Invites an address to the workspace with a role, and mails the link. Nobody joins here: the
 * person joins only by accepting. Inviting an address again replaces its pending invitation (only
 * the newest link works). A current member's address is refused (409 alreadyMember).
 */
export async function invite(
  deps: MailDeps,
  workspaceId: string,
  invitedBy: { id: string; name: string },
  input: { email: string; roleId: string },
): Promise<InvitationView> {
  const email = normaliseEmail(input.email);
  const token = newEmailToken();
  const { view, workspaceName } = await deps.dataSource.transaction(async (manager) => {
    const role = await manager.findOneBy(Role, { id: input.roleId, workspaceId });
    if (!role) throw notFoundError('Role not found.', 'roleNotFound');
    const [member] = (await manager.query(
      `SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 AND u.email = $2`,
      [workspaceId, email],
    )) as unknown[];
    if (member) {
      throw conflictError('This person is already a member of the workspace.', 'alreadyMember', ['email']);
    }
    await manager.query(
      `DELETE FROM invitations WHERE workspace_id = $1 AND email = $2 AND accepted_at IS NULL`,
      [workspaceId, email],
    );
    const [inserted] = (await manager.query(
      `INSERT INTO invitations (workspace_id, email, role_id, invited_by, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) RETURNING id`,
      [workspaceId, email, role.id, invitedBy.id, hashEmailToken(token), INVITATION_LIFETIME_MS / 1000],
    )) as { id: string }[];
    const [row] = (await manager.query(
      `SELECT ${VIEW_COLUMNS} FROM invitations i JOIN roles r ON r.id = i.role_id
       LEFT JOIN users u ON u.id = i.invited_by WHERE i.id = $1`,
      [inserted!.id],
    )) as ViewRow[];
    const workspace = await manager.findOneByOrFail(Workspace, { id: workspaceId });
    return { view: toView(row!), workspaceName: workspace.name };
  });
  await sendMail(
    deps,
    invitationMessage(email, {
      workspaceName,
      inviter: invitedBy.name,
      roleName: view.roleName,
      link: linkTo(deps.publicUrl(), 'accept-invitation', token),
    }),
  );
  return view;
}

/** Withdraws a pending invitation of the workspace; its link stops working at once. */
export async function revokeInvitation(
  manager: EntityManager,
  workspaceId: string,
  id: string,
): Promise<void> {
  const [, deleted] = (await manager.query(
    `DELETE FROM invitations WHERE id = $1 AND workspace_id = $2 AND accepted_at IS NULL`,
    [id, workspaceId],
  )) as [unknown, number];
  if (!deleted) throw notFoundError('Invitation not found.', 'invitationNotFound');
}

interface PendingRow {
  id: string;
  workspace_id: string;
  email: string;
  role_id: string;
}

/** A link that still works: not accepted (revoked and replaced ones are deleted), not expired. */
const PENDING = `i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > now()`;

/** Where the link leads, for the accept page; refuses a link that no longer works. */
export async function previewInvitation(dataSource: DataSource, token: string): Promise<InvitationPreview> {
  const [row] = (await dataSource.query(
    `SELECT w.name AS "workspaceName", i.email, r.name AS "roleName" FROM invitations i
     JOIN workspaces w ON w.id = i.workspace_id JOIN roles r ON r.id = i.role_id
     WHERE ${PENDING}`,
    [hashEmailToken(token)],
  )) as InvitationPreview[];
  if (!row) throw invalidLink();
  return row;
}

/**
 * Spends the invitation (one conditional UPDATE: of two accepts, one joins) and adds the user as
 * an Active member with the invitation's role. A refusal rolls the spend back with the transaction.
 */
async function spendAndJoin(manager: EntityManager, token: string, user: User): Promise<string> {
  const [rows] = (await manager.query(
    `UPDATE invitations i SET accepted_at = now() WHERE ${PENDING} RETURNING id, workspace_id, email, role_id`,
    [hashEmailToken(token)],
  )) as [PendingRow[], number];
  const invitation = rows[0];
  if (!invitation) throw invalidLink();
  if (invitation.email !== user.email) {
    throw authorizationError(
      'This invitation is for another e-mail address. Sign in with the account of that address.',
      'invitationForAnotherEmail',
    );
  }
  if (await manager.existsBy(Member, { workspaceId: invitation.workspace_id, userId: user.id })) {
    throw conflictError('You are already a member of this workspace.', 'alreadyMember');
  }
  await manager.insert(Member, {
    workspaceId: invitation.workspace_id,
    userId: user.id,
    roleId: invitation.role_id,
    status: 'active',
  });
  return invitation.workspace_id;
}

/**
 * Accepts while signed in. The route lets only a verified account through (requireSession), and
 * the account's address must be the invited one: the person proved they read that inbox.
 */
export async function acceptInvitation(
  dataSource: DataSource,
  userId: string,
  token: string,
): Promise<string> {
  return dataSource.transaction(async (manager) => {
    const user = await manager.findOneByOrFail(User, { id: userId });
    if (!user.emailVerifiedAt) {
      throw authorizationError('Confirm your e-mail address first.', 'emailNotVerified');
    }
    return spendAndJoin(manager, token, user);
  });
}

/**
 * Accepts by the link without an account: creates a verified account of the invited address (the
 * link proved it) with the invitee's own name and password, and joins. An address that has an
 * account already is refused (409 emailTaken): sign in and accept, or reset the password first.
 */
export async function acceptInvitationAsNew(
  dataSource: DataSource,
  input: { token: string; name: string; password: string },
): Promise<{ userId: string; email: string; workspaceId: string }> {
  const [pending] = (await dataSource.query(`SELECT i.email FROM invitations i WHERE ${PENDING}`, [
    hashEmailToken(input.token),
  ])) as { email: string }[];
  if (!pending) throw invalidLink();
  assertPasswordAllowed(input.password, { email: pending.email, name: input.name }, ['password']);
  const passwordHash = await hashPassword(input.password);
  return dataSource.transaction(async (manager) => {
    const user = await createUser(manager, {
      name: input.name,
      email: pending.email,
      passwordHash,
      verified: true,
    });
    const workspaceId = await spendAndJoin(manager, input.token, user);
    return { userId: user.id, email: user.email, workspaceId };
  });
}
