import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';

/**
 * What the web app learns about people, workspaces, roles and members (docs/app-api.md). Light on
 * purpose: the web app imports these types, and the entities take their value lists from here.
 */

export const PLAN_STATES = ['none', 'active', 'trial_ended', 'lapsed'] as const;
export type PlanState = (typeof PLAN_STATES)[number];
export const MEMBER_STATUSES = ['active', 'inactive'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const BUILTIN_ROLES = ['admin', 'member', 'viewer'] as const;
export type BuiltinRole = (typeof BUILTIN_ROLES)[number];
/** Read access on the API & Webhooks row, and on a record type. */
export const READ_ACCESS = ['none', 'all'] as const;
export type ReadAccess = (typeof READ_ACCESS)[number];

export const userViewSchema = z.object({ id, email: z.string(), name: z.string() });
export type UserView = z.output<typeof userViewSchema>;
export const workspaceViewSchema = z.object({ id, name: z.string(), planState: z.enum(PLAN_STATES) });
export type WorkspaceView = z.output<typeof workspaceViewSchema>;

/** What a role allows on the API & Webhooks row (docs/api.md#permissions). */
export const apiPermissionsSchema = z.object({
  /** Read access All: list own keys, open Webhooks, Deliveries and Event Details; use API keys at all. */
  apiRead: z.boolean(),
  /** plus Create: add webhooks, resend deliveries, create API keys. */
  apiCreate: z.boolean(),
  /** plus Edit: edit webhooks, see saved secret and header values. */
  apiEdit: z.boolean(),
  /** plus Delete: delete webhooks and own API keys. */
  apiDelete: z.boolean(),
  /** Admin role only: members and roles (docs/api.md#permissions). */
  manageWorkspace: z.boolean(),
});
export type ApiPermissions = z.output<typeof apiPermissionsSchema>;

/** A role as the session carries it (without record access or member count). */
export const sessionRoleSchema = z.object({
  id,
  name: z.string(),
  builtin: z.enum(BUILTIN_ROLES).nullable(),
  isAdmin: z.boolean(),
  apiRead: z.enum(READ_ACCESS),
  apiCreate: z.boolean(),
  apiEdit: z.boolean(),
  apiDelete: z.boolean(),
});
export type SessionRole = z.output<typeof sessionRoleSchema>;

/** A role's record access: read none/all per type (others follow the default), restricted fields. */
export const roleRecordAccessSchema = z.object({
  defaultRecordAccess: z.enum(READ_ACCESS),
  /** Per record type id. */
  recordAccess: z.record(z.string(), z.enum(READ_ACCESS)),
  /** Values of these fields read `restricted`. */
  restrictedFieldIds: z.array(z.string()),
});
export type RoleRecordAccess = z.output<typeof roleRecordAccessSchema>;

export const roleViewSchema = sessionRoleSchema
  .extend(roleRecordAccessSchema.shape)
  .extend({ memberCount: z.number().int() });

export const memberViewSchema = z.object({
  userId: id,
  email: z.string(),
  name: z.string(),
  roleId: id,
  roleName: z.string(),
  status: z.enum(MEMBER_STATUSES),
  createdAt: timestamp,
});
export type RoleView = z.output<typeof roleViewSchema>;
export type MemberView = z.output<typeof memberViewSchema>;

/**
 * A member the operator CLI's `add-member` added; an unknown email got a generated password, printed
 * once. (The web app has no such route: a person joins from it only by accepting an invitation.)
 */
export const memberAddedSchema = z.object({
  member: memberViewSchema,
  temporaryPassword: z.string().optional(),
});
export type MemberAdded = z.output<typeof memberAddedSchema>;

/** A pending invitation, as the Admin lists it (never its token). */
export const invitationViewSchema = z.object({
  id,
  email: z.string(),
  roleId: id,
  roleName: z.string(),
  invitedBy: z.string().nullable(),
  createdAt: timestamp,
  expiresAt: timestamp,
});
export type InvitationView = z.output<typeof invitationViewSchema>;

/** What the link's holder learns before accepting: where to, as whom, with which role. */
export const invitationPreviewSchema = z.object({
  workspaceName: z.string(),
  email: z.string(),
  roleName: z.string(),
});
export type InvitationPreview = z.output<typeof invitationPreviewSchema>;

/** What the web app learns about the signed-in person: never a password hash. */
export const sessionViewSchema = z.object({
  user: userViewSchema,
  /** False until the address is proven: then every other signed-in route answers 403 emailNotVerified. */
  emailVerified: z.boolean(),
  workspace: workspaceViewSchema,
  workspaces: z.array(workspaceViewSchema),
  member: z.object({ status: z.enum(MEMBER_STATUSES) }),
  role: sessionRoleSchema,
  permissions: apiPermissionsSchema,
  onboardingPending: z.boolean(),
  deployment: z.enum(['self-hosted', 'cloud']),
  mcpUrl: z.string(),
});
export type SessionView = z.output<typeof sessionViewSchema>;
