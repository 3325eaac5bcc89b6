import { z } from 'zod';
import { id, timestamp } from '../../http/view-schemas';
import { EXAMPLE } from '../../http/view-examples';
import { RESEND_BATCH_MAX } from '../../shared/limits';

/** Why one delivery was not resent: what a single resend of it would have been refused with. */
export const resendRefusalSchema = z
  .object({
    status: z.int().meta({ description: 'The HTTP status a single resend would have answered (e.g. 409).' }),
    customCode: z
      .string()
      .nullable()
      .meta({ description: 'The refusal’s stable code, e.g. `webhookSourcesChanged`.' }),
    message: z.string(),
  })
  .meta({ description: 'Why this delivery was not resent.' });

export const resendBatchResultSchema = z
  .object({
    deliveryId: id.meta({ description: 'The Failed delivery.' }),
    event: z.string(),
    resentDeliveryId: id.nullable().meta({ description: 'The new delivery, when it was resent; else null.' }),
    refusal: resendRefusalSchema.nullable(),
  })
  .meta({ description: 'What became of one delivery: resent (a new delivery) or refused (the reason).' });

/** A "Resend failed since …" batch as REST, MCP and the web app return it. */
export const resendBatchViewSchema = z
  .object({
    id,
    webhookId: id,
    status: z.enum(['running', 'completed']).meta({
      description:
        '`running` while deliveries are still being resent; `completed` once every one has a result.',
    }),
    since: timestamp,
    limit: z
      .int()
      .min(1)
      .max(RESEND_BATCH_MAX)
      .meta({
        description: `The most deliveries one batch resends (${RESEND_BATCH_MAX}).`,
      }),
    total: z.int().min(0).max(RESEND_BATCH_MAX).meta({
      description:
        'How many Failed deliveries this batch resends (chosen when it was asked for, oldest first).',
    }),
    moreRemained: z.boolean().meta({
      description:
        'True when more Failed deliveries matched than the limit: start another batch, since the last one’s time, for the rest.',
    }),
    resent: z.int().min(0).meta({ description: 'Deliveries resent so far.' }),
    refused: z.int().min(0).meta({ description: 'Deliveries refused so far (see each result’s `refusal`).' }),
    results: z
      .array(resendBatchResultSchema)
      .meta({ description: 'One per delivery handled so far, oldest first.' }),
    createdAt: timestamp,
    completedAt: timestamp.nullable(),
  })
  .meta({ description: 'A bounded batch of resends of one webhook’s Failed deliveries, and its progress.' });
export type ResendBatchView = z.output<typeof resendBatchViewSchema>;
export type ResendBatchResultView = z.output<typeof resendBatchResultSchema>;

// ---- The OpenAPI examples (success-examples.test.ts parses each with its schema) -------------

/** What starting a batch answers: chosen, not resent yet. */
export const startedResendBatchExample = {
  id: 'f3b9c2d1-8a4e-4f67-9b0c-5d2e7a1f4c38',
  webhookId: EXAMPLE.webhookId,
  status: 'running',
  since: '2025-03-04T00:00:00.000Z',
  limit: RESEND_BATCH_MAX,
  total: 2,
  moreRemained: false,
  resent: 0,
  refused: 0,
  results: [],
  createdAt: '2025-03-05T08:00:00.000Z',
  completedAt: null,
} satisfies ResendBatchView;

/** A finished batch: one resent, one refused because the webhook's record sources changed. */
export const completedResendBatchExample = {
  ...startedResendBatchExample,
  status: 'completed',
  resent: 1,
  refused: 1,
  results: [
    {
      deliveryId: EXAMPLE.deliveryId,
      event: 'record.updated',
      resentDeliveryId: EXAMPLE.resendId,
      refusal: null,
    },
    {
      deliveryId: 'b8e4d1a7-2c5f-4e93-a6b0-9d3c7f1e5a24',
      event: 'record.created',
      resentDeliveryId: null,
      refusal: {
        status: 409,
        customCode: 'webhookSourcesChanged',
        message: 'The webhook’s record sources changed since this delivery.',
      },
    },
  ],
  completedAt: '2025-03-05T08:00:02.000Z',
} satisfies ResendBatchView;
