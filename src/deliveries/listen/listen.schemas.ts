import { z } from 'zod';
import { canonicalUuid } from '../../shared/id-spelling';

/**
 * `GET /api/v1/listen` (docs/listen.md#the-stream): `events`, comma-separated (the service holds
 * them to the webhook's events rule; every event of the catalog when left out). `session` resumes
 * a session instead of opening one.
 */
export const listenQuery = z.strictObject({
  events: z.string().max(5_000).optional(),
  session: canonicalUuid().optional(),
});
export type ListenQuery = z.infer<typeof listenQuery>;

/** `POST /api/v1/listen/{sessionId}/answers`: what the local receiver answered one delivery. */
export const listenAnswerBody = z.union([
  z.strictObject({
    deliveryId: canonicalUuid(),
    statusCode: z.number().int().min(100).max(599),
    statusText: z.string().max(200).default(''),
  }),
  z.strictObject({ deliveryId: canonicalUuid(), error: z.string().min(1).max(500) }),
]);
export type ListenAnswerBody = z.infer<typeof listenAnswerBody>;
