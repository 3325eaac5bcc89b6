import { z } from 'zod';
import { withCode } from '../errors/zod-issues';
import { RECORD_EVENTS } from '../shared/record-event-names';
import { recordQuerySchema } from '../records/record-query';

/** spec.md, Limits: "recordSources: up to 50 entries". */
export const RECORD_SOURCES_MAX = 50;

/** A record source: a query over one type (`typeId`, search, filters) and optional changed fields. */
export const recordTriggerSchema = z.strictObject({
  query: recordQuerySchema,
  changedFieldIds: z.array(z.uuid()).max(100).optional(),
});
export type RecordTrigger = z.infer<typeof recordTriggerSchema>;

/** One of several record sources of a webhook, each with its own events. */
export const recordSourceSchema = recordTriggerSchema.extend({
  events: z.array(z.enum(RECORD_EVENTS)).min(1).optional(),
});
export type RecordSource = z.infer<typeof recordSourceSchema>;

export const recordSourcesSchema = z
  .array(recordSourceSchema)
  .refine(
    (sources) => sources.length <= RECORD_SOURCES_MAX,
    withCode(
      'webhookRecordSourcesTooMany',
      `A webhook can follow at most ${RECORD_SOURCES_MAX} record sources.`,
    ),
  );
