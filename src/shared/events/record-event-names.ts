/**
 * docs/events.md#record-events: the five generic record events. A plain module: workflows and the
 * web app import it.
 */
export const RECORD_EVENTS = [
  'record.created',
  'record.updated',
  'record.deleted',
  'record.restored',
  'record.deletedPermanently',
] as const;
export type RecordEventName = (typeof RECORD_EVENTS)[number];
