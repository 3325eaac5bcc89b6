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

/** `GET /app/api/webhooks/{id}/resend-failed/preview?since=`: what a batch started now would take. */
export const resendFailedPreviewQuery = resendFailedBody;

/** What a batch started now would resend: its deliveries (at most a batch), and whether more remain. */
export const resendFailedPreviewView = z.object({
  count: z.int().min(0),
  moreRemained: z.boolean(),
});
export type ResendFailedPreview = z.output<typeof resendFailedPreviewView>;
