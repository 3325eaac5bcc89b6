import { z } from 'zod';
import { AppError, type ErrorIssue } from '../app-error';
import { MASKED_VALUE } from '../deliveries/attempt-record';
import { RECORD_EVENTS } from '../events/record-event-names';
import { fieldOf, recordQuerySchema, validateQuery, type QueryField } from '../records/record-query.rules';
import { canonicalUuid } from '../id-spelling';
import { withCode } from '../with-code';

/** docs/api.md#limits: "recordSources: up to 50 entries". */
export const RECORD_SOURCES_MAX = 50;
/** How many changed fields one source may watch (a request cap; a type has fewer fields). */
export const CHANGED_FIELDS_MAX = 100;

/** A record source: a query over one type (`typeId`, search, filters) and optional changed fields. */
export const recordTriggerSchema = z.strictObject({
  query: recordQuerySchema,
  // A watched field the reader cannot read reads as the mask, and is sent back as it (record-source-mask.rules.ts).
  changedFieldIds: z
    .array(canonicalUuid().or(z.literal(MASKED_VALUE)))
    .max(CHANGED_FIELDS_MAX)
    .optional()
    .meta({
      description:
        'Field ids whose change sends record.updated. A field you cannot read answers ' +
        `\`${MASKED_VALUE}\` (also as a filter value); send it back as read to keep it.`,
    }),
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
  )
  // A refinement is not advertised: the documents state the rule's limit themselves.
  .meta({ maxItems: RECORD_SOURCES_MAX });

/**
 * What is wrong with one source against the fields of its type (docs/api.md#rest-endpoints: a record
 * source's query, changed fields and events) against its type, at `path`: filters that do not fit their field,
 * changed fields the type does not have, events the webhook does not subscribe to, and fields
 * `isRestricted` says the record owner cannot read (filtering on one, or watching it, would reveal
 * its values through which records are delivered; issue 10, hole 2). The server runs it with the
 * record owner's access; the web app with no restriction, leaving that to the server.
 */
export function recordSourceIssues(
  source: RecordTrigger & { events?: readonly string[] },
  type: { name: string; fields: readonly QueryField[] },
  path: (string | number)[],
  subscribedEvents: readonly string[],
  isRestricted: (fieldId: string) => boolean = () => false,
): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  try {
    validateQuery(source.query, type.fields, [...path, 'query']);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    issues.push(...error.issues);
  }
  const restricted = (fieldId: string, at: (string | number)[]) => {
    if (!isRestricted(fieldId)) return;
    issues.push({
      code: 'invalid',
      path: at,
      message: 'The record owner cannot read this field, so a webhook cannot filter on it or watch it.',
      customCode: 'webhookFieldRestricted',
    });
  };
  for (const [index, filter] of (source.query.filters ?? []).entries()) {
    restricted(filter.fieldId, [...path, 'query', 'filters', index, 'fieldId']);
  }
  for (const [index, fieldId] of (source.changedFieldIds ?? []).entries()) {
    const at = [...path, 'changedFieldIds', index];
    if (!fieldOf(fieldId, source.query.typeId, type.fields)) {
      issues.push({
        code: 'invalid',
        path: at,
        message: `No field ${fieldId} in ${type.name}.`,
        customCode: 'webhookChangedFieldUnknown',
      });
    } else restricted(fieldId, at);
  }
  for (const [index, event] of (source.events ?? []).entries()) {
    if (!subscribedEvents.includes(event)) {
      issues.push({
        code: 'invalid',
        path: [...path, 'events', index],
        message: `The webhook does not subscribe to ${event}.`,
        customCode: 'webhookSourceEventNotSubscribed',
      });
    }
  }
  return issues;
}
