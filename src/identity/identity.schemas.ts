import { z } from 'zod';
import { MEMBER_STATUSES } from './member.entity';
import {
  PASSWORD_INPUT_LIMIT,
  passwordProblem,
  type PasswordContext,
} from '../shared/credentials/password.rules';
import { canonicalUuid } from '../shared/id-spelling';
import { ownCharacterRule } from '../http/validate';

const email = z.email({ error: 'Enter a valid email address.' }).max(320);
const name = z.string().trim().min(1, 'Required.').max(255);

/**
 * A password being chosen (sign-up, change password) follows the one rule in
 * src/shared/credentials/password.rules.ts, with who it is for when the body says (sign-up); change password
 * adds the signed-in person's own email and name in the service.
 */
const newPasswordIssue = (
  ctx: z.RefinementCtx,
  path: string,
  password: string,
  context?: PasswordContext,
) => {
  const problem = passwordProblem(password, context);
  if (problem)
    ctx.addIssue({
      code: 'custom',
      path: [path],
      message: problem.message,
      params: { customCode: problem.customCode },
    });
};

// A password may hold any character (password.rules.ts): the control-character rule leaves it alone.
const anyCharacters = <Schema extends z.ZodType>(schema: Schema) =>
  ownCharacterRule(schema, 'src/shared/credentials/password.rules.ts');

/** A password typed to prove who one is: any length a password may have, bounded for scrypt. */
const password = anyCharacters(z.string().min(1, 'Required.').max(PASSWORD_INPUT_LIMIT));

export const signUpBody = z
  .object({ name, email, password: anyCharacters(z.string()), workspaceName: name })
  .superRefine((body, ctx) => newPasswordIssue(ctx, 'password', body.password, body));
export type SignUpBody = z.infer<typeof signUpBody>;

export const signInBody = z.object({ email: z.string().min(1).max(320), password });
export type SignInBody = z.infer<typeof signInBody>;

/** The current password proves it is the person, not only their browser (docs/app-api.md). */
export const changePasswordBody = z
  .object({ currentPassword: password, newPassword: anyCharacters(z.string()) })
  .superRefine((body, ctx) => newPasswordIssue(ctx, 'newPassword', body.newPassword));
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The token of an e-mailed link (43 base64url characters when the service made it). */
export const emailTokenBody = z.object({ token: z.string().min(1, 'Required.').max(200) });
export type EmailTokenBody = z.infer<typeof emailTokenBody>;

/** Asks for a password-reset link; any string that could be an email is counted, none is told apart. */
export const passwordResetBody = z.object({ email: z.string().trim().min(1, 'Required.').max(320) });

/** A new password by an e-mailed link; the rule (with the account's email and name) is checked in the service. */
export const completePasswordResetBody = z.object({
  token: emailTokenBody.shape.token,
  newPassword: anyCharacters(z.string().min(1, 'Required.').max(PASSWORD_INPUT_LIMIT)),
});
export type CompletePasswordResetBody = z.infer<typeof completePasswordResetBody>;

/** Another workspace of the signed-in user, named as sign-up names the first one. */
export const createWorkspaceBody = z.object({ name });
export type CreateWorkspaceBody = z.infer<typeof createWorkspaceBody>;

export const switchWorkspaceBody = z.object({ workspaceId: z.uuid() });

/** An invitation: the address and the role it joins with (the name is the invitee's to choose). */
export const inviteBody = z.object({ email, roleId: z.uuid() });
export type InviteBody = z.infer<typeof inviteBody>;

/** Accepting by the link without an account: the invitee's own name and password. */
export const acceptInvitationAsNewBody = z
  .object({ token: emailTokenBody.shape.token, name, password: anyCharacters(z.string()) })
  .superRefine((body, ctx) => newPasswordIssue(ctx, 'password', body.password, { name: body.name }));
export type AcceptInvitationAsNewBody = z.infer<typeof acceptInvitationAsNewBody>;

export const updateMemberBody = z
  .object({ roleId: z.uuid().optional(), status: z.enum(MEMBER_STATUSES).optional() })
  .refine((body) => body.roleId !== undefined || body.status !== undefined, 'Send roleId or status.');

const roleName = z.string().trim().min(1, 'Required.').max(100);
const roleRow = {
  apiRead: z.enum(['none', 'all']).optional(),
  apiCreate: z.boolean().optional(),
  apiEdit: z.boolean().optional(),
  apiDelete: z.boolean().optional(),
  defaultRecordAccess: z.enum(['none', 'all']).optional(),
  // Ids in their one spelling: record access and restrictions compare them exactly (id-spelling.ts).
  recordAccess: z.record(canonicalUuid(), z.enum(['none', 'all'])).optional(),
  restrictedFieldIds: z.array(canonicalUuid()).max(1000).optional(),
};
export const createRoleBody = z.object({ name: roleName, ...roleRow });
export const updateRoleBody = z.object({ name: roleName.optional(), ...roleRow });
