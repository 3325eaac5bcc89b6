import { z } from 'zod';
import { pagingQuery } from '../../http/paging-query';
import { STATS_RANGES } from '../../shared/deliveries/delivery-stats';
import { DELIVERY_ID_PREFIX_RULE, deliveryIdRange } from '../../shared/deliveries/delivery-ids';
import { deliveryViewSchema } from './delivery-view';

const dateFilter = z.iso.datetime({ offset: true }).or(z.iso.date()).optional();

/** A whole id (any letter case); `what` names it in the refusal, instead of zod's "Invalid UUID". */
const wholeId = (name: string, what: string) =>
  z.guid({ error: `${name} must be a whole ${what} id: 8-4-4-4-12 hex digits.` }).optional();

/**
 * docs/deliveries.md#the-delivery-log: "optional searchTerm (matches URL and event name)", with
 * paging; and the filters users know from other webhook logs, applied by the database: among them
 * what a person knows of one delivery (its event id, its record, its id or short id; issue 27, item
 * 3). A parameter not listed here is refused (400 `unknownField`) rather than silently ignored, a
 * malformed value (400 `invalid`, …) too.
 */
export const listDeliveriesQuery = pagingQuery
  .extend({
    searchTerm: z.string().max(200).optional(),
    status: deliveryViewSchema.shape.status.optional(),
    state: deliveryViewSchema.shape.state.optional(),
    event: z.string().max(100).optional(),
    url: z.string().max(4096).optional(),
    createdFrom: dateFilter,
    createdTo: dateFilter,
    eventId: wholeId('eventId', 'event'),
    recordId: wholeId('recordId', 'record'),
    idPrefix: z
      .string()
      .trim()
      .max(36, { abort: true })
      .refine((text) => deliveryIdRange(text) !== null, {
        error: `idPrefix must be ${DELIVERY_ID_PREFIX_RULE}.`,
      })
      .optional(),
  })
  .strict();

/** Every webhook's log can also be narrowed to one webhook. */
export const listAllDeliveriesQuery = listDeliveriesQuery.extend({ webhookId: z.uuid().optional() }).strict();

/** The filters of the every-webhook log, as the web app sends them. */
export type DeliveryListQuery = Partial<z.output<typeof listAllDeliveriesQuery>>;

/** The chart of deliveries by outcome: a range and, optionally, one webhook. */
export const deliveryStatsQuery = z
  .object({
    range: z.enum(STATS_RANGES).default('24h'),
    webhookId: z.uuid().optional(),
  })
  .strict();

export type DeliveryStatsQuery = z.input<typeof deliveryStatsQuery>;
