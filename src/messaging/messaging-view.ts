import { z } from 'zod';

/** A connected messaging account as the web app reads it (its signing secret is shown once). */
export interface ConnectedAccountView {
  id: string;
  provider: string;
  /** The provider's id of the account. */
  accountId: string;
  displayName: string;
  createdAt: string;
}

/** `POST /api/v1/messaging/inbound/{accountId}`: what happened to one provider activity. */
export const ingestResultSchema = z.object({
  stored: z
    .boolean()
    .meta({ description: 'Whether a messaging event was kept (only while a webhook subscribes).' }),
  eventId: z.uuid().optional(),
  duplicate: z
    .boolean()
    .optional()
    .meta({ description: 'The provider event came before: nothing new was kept.' }),
  reason: z.string().optional(),
});
export type IngestResult = z.output<typeof ingestResultSchema>;
