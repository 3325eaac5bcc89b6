import { z } from 'zod';

/** Settings → Connected accounts → Connect (web app, Admins; docs/messaging.md). */
export const connectAccountBody = z.strictObject({
  provider: z.string().trim().min(1).max(50),
  accountId: z.string().trim().min(1).max(200),
  displayName: z.string().trim().min(1).max(200),
});
export type ConnectAccountBody = z.infer<typeof connectAccountBody>;
