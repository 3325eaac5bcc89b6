import { z } from 'zod';
import { id } from '../http/view-schemas';
import { apiPermissionsSchema } from '../identity/identity-view';
import { EXAMPLE } from '../http/view-examples';

/** `GET /api/v1/me`: who a key acts as, with the permissions it has right now. */
export const meSchema = z.object({
  user: z.object({ id, email: z.string(), name: z.string() }),
  workspace: z.object({ id, name: z.string() }),
  role: z.object({ id, name: z.string() }),
  permissions: apiPermissionsSchema,
  apiKey: z.object({ id }),
});
export type Me = z.output<typeof meSchema>;

/** The OpenAPI example (success-examples.test.ts parses it). */
export const meExample = {
  user: { id: EXAMPLE.userId, email: 'ada@example.com', name: 'Ada Lovelace' },
  workspace: { id: EXAMPLE.workspaceId, name: 'Analytical Engines' },
  role: { id: EXAMPLE.roleId, name: 'Member' },
  permissions: { apiRead: true, apiCreate: true, apiEdit: true, apiDelete: false, manageWorkspace: false },
  apiKey: { id: EXAMPLE.apiKeyId },
} satisfies Me;
