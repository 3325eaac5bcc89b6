import { z } from 'zod';
import { DELIVERED_EVENTS } from '../../shared/events/event-catalog';

/** `POST /webhooks/{id}/test`: which of the webhook's events to send a sample of. */
export const sendTestEventBody = z.strictObject({
  event: z.enum(DELIVERED_EVENTS).describe('One of the events the webhook subscribes to.'),
});
export type SendTestEventBody = z.output<typeof sendTestEventBody>;
