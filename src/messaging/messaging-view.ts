import { z } from 'zod';

/** A connected messaging account as the web app reads it (its signing secret is shown once). */
export const connectedAccountViewSchema = z.object({
  id: z.uuid(),
  provider: z.string(),
  /** The provider's id of the account. */
  accountId: z.string(),
  displayName: z.string(),
  createdAt: z.iso.datetime(),
});
export type ConnectedAccountView = z.output<typeof connectedAccountViewSchema>;

/** A new connection: the signing secret is shown this once, the server never returns it again. */
export const connectedAccountCreatedSchema = z.object({
  account: connectedAccountViewSchema,
  signingSecret: z.string(),
});
export type ConnectedAccountCreated = z.output<typeof connectedAccountCreatedSchema>;

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

/** The OpenAPI example (success-examples.test.ts parses it): a message kept for a subscribing webhook. */
export const ingestResultExample = {
  stored: true,
  eventId: '1c7e3a9f-5b2d-4e84-a6c0-8f2d4b6e0a13',
} satisfies IngestResult;
