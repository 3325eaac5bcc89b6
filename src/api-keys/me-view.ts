import { z } from 'zod';
import { id } from '../http/view-schemas';

/** `GET /api/v1/me`: who a key acts as, with the permissions it has right now. */
export const meSchema = z.object({
  user: z.object({ id, email: z.string(), name: z.string() }),
  workspace: z.object({ id, name: z.string() }),
  role: z.object({ id, name: z.string() }),
  permissions: z.object({
    apiRead: z.boolean(),
    apiCreate: z.boolean(),
    apiEdit: z.boolean(),
    apiDelete: z.boolean(),
    manageWorkspace: z.boolean(),
  }),
  apiKey: z.object({ id }),
});
export type Me = z.output<typeof meSchema>;
