import { z } from 'zod';
import { MEMBER_STATUSES } from './member.entity';
import { PASSWORD_MIN_LENGTH } from './passwords';

const email = z.email({ error: 'Enter a valid email address.' }).max(320);
const name = z.string().trim().min(1, 'Required.').max(255);

export const signUpBody = z.object({
  name,
  email,
  password: z.string().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`).max(200),
  workspaceName: name,
});
export type SignUpBody = z.infer<typeof signUpBody>;

export const signInBody = z.object({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(200),
});
export type SignInBody = z.infer<typeof signInBody>;

export const switchWorkspaceBody = z.object({ workspaceId: z.uuid() });

export const addMemberBody = z.object({ email, name: name.optional(), roleId: z.uuid() });
export type AddMemberBody = z.infer<typeof addMemberBody>;

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
  recordAccess: z.record(z.uuid(), z.enum(['none', 'all'])).optional(),
  restrictedFieldIds: z.array(z.uuid()).max(1000).optional(),
};
export const createRoleBody = z.object({ name: roleName, ...roleRow });
export const updateRoleBody = z.object({ name: roleName.optional(), ...roleRow });
