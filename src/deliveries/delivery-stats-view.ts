import { z } from 'zod';
import { id, timestamp } from '../http/view-schemas';
import { STATS_RANGES } from '../shared/delivery-stats';
import { windowHealthSchema } from '../webhooks/webhook-view';

const count = z.int().min(0);

/** Deliveries by outcome over time: one bucket per hour (24 h) or UTC day (7 and 30 days). */
export const deliveryStatsSchema = z
  .object({
    range: z.enum(STATS_RANGES),
    bucket: z.enum(['hour', 'day']).meta({ description: 'Each bucket spans one hour (24h) or one UTC day.' }),
    from: timestamp.meta({ description: "The first bucket's start (counted from, inclusive)." }),
    to: timestamp.meta({
      description: "The last bucket's end (exclusive); the last bucket is the current hour or day.",
    }),
    webhookId: id.nullable().meta({ description: 'The webhook counted; null for every webhook.' }),
    buckets: z
      .array(
        z.object({
          start: timestamp,
          delivered: count,
          failed: count.meta({ description: 'Failed, including those waiting for a retry.' }),
          inFlight: count.meta({ description: 'Pending or Sending now.' }),
        }),
      )
      .meta({ description: 'Oldest first, every bucket of the range (zeros where nothing was sent).' }),
    totals: windowHealthSchema,
  })
  .meta({ description: 'Deliveries counted by the time they were created and their status now.' });

export type DeliveryStatsView = z.output<typeof deliveryStatsSchema>;
