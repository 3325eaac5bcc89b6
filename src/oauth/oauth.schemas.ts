import { z } from 'zod';

/** `POST /consent/:uid/allow`: the workspace the person chose for the app. */
export const consentBody = z.strictObject({
  workspaceId: z.uuid(),
  /** Let the app only read: its tools are those that change nothing, whatever the person's role allows. */
  readOnly: z.boolean().optional(),
});

export type ConsentBody = z.output<typeof consentBody>;
