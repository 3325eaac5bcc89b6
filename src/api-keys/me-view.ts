import { z } from 'zod';
import { id } from '../http/view-schemas';
import { apiPermissionsSchema } from '../identity/identity-view';

/** `GET /api/v1/me`: who a key acts as, with the permissions it has right now. */
export const meSchema = z.object({
  user: z.object({ id, email: z.string(), name: z.string() }),
  workspace: z.object({ id, name: z.string() }),
  role: z.object({ id, name: z.string() }),
  permissions: apiPermissionsSchema,
  apiKey: z.object({ id }),
});
export type Me = z.output<typeof meSchema>;
