import { z } from 'zod';
import { id, timestamp } from '../../http/view-schemas';
import { STATS_RANGES } from '../../shared/deliveries/delivery-stats';
import { windowHealthSchema } from '../../webhooks/webhook-view';
import { EXAMPLE } from '../../http/view-examples';

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
          failed: count.meta({ description: 'Failed for good: no attempt follows.' }),
          retrying: count.meta({
            description: 'Failed, with the next attempt of the schedule to come (status `failed`).',
          }),
          inFlight: count.meta({ description: 'Pending or Sending now.' }),
        }),
      )
      .meta({ description: 'Oldest first, every bucket of the range (zeros where nothing was sent).' }),
    totals: windowHealthSchema,
  })
  .meta({ description: 'Deliveries counted by the time they were created and their status now.' });

export type DeliveryStatsView = z.output<typeof deliveryStatsSchema>;

const hour = (h: number) => `2025-03-04T${String(h).padStart(2, '0')}:00:00.000Z`;

/** One webhook's last 24 hours (OpenAPI example; success-examples.test.ts parses it). */
export const deliveryStatsExample = {
  range: '24h',
  bucket: 'hour',
  from: '2025-03-03T17:00:00.000Z',
  to: '2025-03-04T17:00:00.000Z',
  webhookId: EXAMPLE.webhookId,
  buckets: [
    ...Array.from({ length: 7 }, (_, index) => ({
      start: `2025-03-03T${17 + index}:00:00.000Z`,
      delivered: 0,
      failed: 0,
      retrying: 0,
      inFlight: 0,
    })),
    ...Array.from({ length: 17 }, (_, index) => ({
      start: hour(index),
      delivered: index === 16 ? 3 : index % 4 === 1 ? 1 : 0,
      failed: index === 9 ? 2 : 0,
      retrying: index === 16 ? 1 : 0,
      inFlight: 0,
    })),
  ],
  totals: { delivered: 7, failed: 2, retrying: 1, inFlight: 0, successRate: 7 / 9 },
} satisfies DeliveryStatsView;
