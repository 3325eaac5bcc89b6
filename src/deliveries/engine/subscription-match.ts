import type { FieldDef } from '../../record-model/field-kinds';
import type { RecordAccess } from '../../record-model/record-access';
import type { RecordEventName } from '../../shared/events/record-event-names';
import { matchesQuery, type MatchableRecord } from '../../records/query/record-query';
import type { RecordEventData } from '../../records/redaction';
import type { RecordSource, RecordTrigger } from '../../webhooks/record-source-schemas';

/** What matching needs of a webhook. */
export interface SubscribedWebhook {
  events: string[];
  recordTrigger: RecordTrigger | null;
  recordSources: RecordSource[] | null;
  /** The record owner's current access; undefined when the owner is gone or Inactive. */
  ownerAccess: RecordAccess | undefined;
}

/** What matching needs of a record event. */
export interface RecordEventToMatch {
  event: RecordEventName;
  typeId: string;
  /**
   * What the event reports as changed (changedFieldIdsOf): its fields and link fields by id, and
   * ASSIGNMENTS_CHANGED / IDENTITIES_CHANGED for its other connections.
   */
  changedFieldIds: string[];
  /** The record as filters see it: before the move for record.deleted, current otherwise. */
  state: MatchableRecord | undefined;
}

/**
 * Whether a record event reaches a webhook (docs/events.md#record-events and docs/api.md#rest-endpoints):
 * the webhook subscribes to the event; its owner can still read the type; and a record source
 * selects the record — every accessible type when there is neither trigger nor sources, otherwise a
 * source of the record's type whose events include it, whose query matches the record, and, for
 * record.updated, whose changedFieldIds (if any) meet the changed fields the owner can read.
 * record.deletedPermanently reaches every source of the type, without filters (Record events 4).
 *
 * An update of nothing but fields the owner cannot read is delivered like any other: its values
 * render `restricted` with the owner's access at each attempt (docs/events.md#record-events: "A missing
 * or restricted value is not zero"; docs/deliveries.md#what-the-record-owner-cannot-read).
 */
export function webhookReceivesRecordEvent(
  webhook: SubscribedWebhook,
  event: RecordEventToMatch,
  fields: FieldDef[],
): boolean {
  const access = webhook.ownerAccess;
  if (!access || !access.canReadType(event.typeId)) return false;
  // Filters and search see only what the owner may read now: a filter on a field restricted for
  // the owner (or on a formula computed from one) never matches, so deliveries are no oracle.
  const readable = fields.filter((field) => !access.isFieldRestricted(field.id));
  const sources: (RecordTrigger & { events?: string[] })[] | null = webhook.recordTrigger
    ? [webhook.recordTrigger]
    : webhook.recordSources;
  if (sources === null) return webhook.events.includes(event.event);
  return sources.some((source) => {
    if (source.query.typeId.toLowerCase() !== event.typeId.toLowerCase()) return false;
    if (!(source.events ?? webhook.events).includes(event.event)) return false;
    if (event.event === 'record.deletedPermanently') return true;
    if (!event.state || !matchesQuery(event.state, source.query, readable)) return false;
    if (event.event === 'record.updated' && source.changedFieldIds?.length) {
      // A watched field the owner cannot read (restricted since it was saved) counts as unwatched:
      // saving such a watch is refused (webhookFieldRestricted), so a stale one must not outlive it.
      return source.changedFieldIds.some(
        (fieldId) => event.changedFieldIds.includes(fieldId) && !access.isFieldRestricted(fieldId),
      );
    }
    return true;
  });
}

/**
 * Whether matching needs the record's current values and links: only a webhook with a record
 * source (its search and filters, and that the record still exists) does; one that lists events
 * alone matches on the event's name and the owner's access.
 */
export function needsCurrentState(
  webhook: Pick<SubscribedWebhook, 'recordTrigger' | 'recordSources'>,
): boolean {
  return Boolean(webhook.recordTrigger) || webhook.recordSources !== null;
}

/** Stand for changed assignees and identities among an event's changes: no field id reads like these. */
export const ASSIGNMENTS_CHANGED = '$assignments';
export const IDENTITIES_CHANGED = '$identities';

/**
 * What an event reports as changed: the fields and link fields by id, then ASSIGNMENTS_CHANGED and
 * IDENTITIES_CHANGED when those connections changed (no watched field matches them).
 */
export function changedFieldIdsOf(data: RecordEventData): string[] {
  return [
    ...(data.record.fields ?? []).map((field) => field.fieldId),
    ...(data.record.links ?? []).map((link) => link.fieldId),
    ...(data.record.assignments?.length ? [ASSIGNMENTS_CHANGED] : []),
    ...(data.record.identities?.length ? [IDENTITIES_CHANGED] : []),
  ];
}

/**
 * The record as it was just before a move to the Trash, rebuilt from the record.deleted event,
 * which lists every before-value and every relationship the record left.
 */
export function stateBeforeDeletion(typeId: string, data: RecordEventData): MatchableRecord {
  const values: Record<string, unknown> = {};
  for (const field of data.record.fields ?? []) {
    if (field.before.state === 'value') values[field.fieldId] = field.before.value;
    else if (field.before.state === 'error') values[field.fieldId] = { $error: field.before.message };
  }
  const links: Record<string, string[]> = {};
  for (const link of data.record.links ?? []) (links[link.fieldId] ??= []).push(link.record.ref.recordId);
  return { typeId, values, links };
}
