import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../../shared/events/event-catalog';
import { canonicalUuid } from '../../shared/id-spelling';
import { webhookFields } from '../../webhooks/webhooks.schemas';

/**
 * `GET /api/v1/listen` (docs/listen.md#the-stream): `events`, comma-separated, shaped as a webhook's
 * `events` field (the catalog rule runs in the service, as for a webhook); every event of the
 * catalog when left out. `session` resumes a session instead of opening one.
 */
export const listenQuery = z.strictObject({
  events: z
    .string()
    .max(5_000)
    .optional()
    .transform((list) => (list === undefined ? [...WEBHOOK_EVENTS] : list.split(',').map((e) => e.trim())))
    .pipe(webhookFields.events),
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
