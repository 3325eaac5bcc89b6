import { z } from 'zod';

/** `POST /webhooks/{id}/resend-failed`: resend the webhook's Failed deliveries created since then. */
export const resendFailedBody = z.strictObject({
  since: z.iso
    .datetime({ offset: true })
    .describe(
      'An ISO 8601 date-time (e.g. `2025-03-04T00:00:00Z`), not in the future: Failed deliveries created at or after it are resent.',
    ),
});
export type ResendFailedBody = z.output<typeof resendFailedBody>;
