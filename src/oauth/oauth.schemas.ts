import { z } from 'zod';

/** `POST /consent/:uid/allow`: the workspace the person chose for the app. */
export const consentBody = z.strictObject({ workspaceId: z.uuid() });

export type ConsentBody = z.output<typeof consentBody>;
