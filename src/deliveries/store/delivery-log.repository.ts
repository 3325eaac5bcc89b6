import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { dateBound } from '../../db/date-bound';
import { containsPattern } from '../../db/like-pattern';
import type { PageRequest } from '../../http/paging';
import { ValidationError } from '../../shared/app-error';
import { DELIVERY_ID_PREFIX_RULE, deliveryIdRange } from '../../shared/deliveries/delivery-ids';
import { stateCondition, type DeliveryState } from '../../shared/deliveries/delivery-state';
import { Delivery } from './delivery.entity';
import type { SearchMatches } from './delivery-search';

/**
 * The record a delivery is about, as SQL: exactly the expression `deliveries_workspace_record_idx`
 * indexes (a different spelling would not be read from it).
 */
export const RECORD_ID_SQL = `(d.element ->> 'recordId')`;

export interface DeliveryListQuery extends PageRequest {
  webhookId?: string;
  searchTerm?: string;
  status?: Delivery['status'];
  /** The status with Failed split: `retrying` (a next attempt is scheduled) or `failed` (for good). */
  state?: DeliveryState;
  /** The event name, exactly. */
  event?: string;
  /** The URL the delivery was sent to, exactly. */
  url?: string;
  /** ISO 8601 date or date-time; a date covers its whole day (UTC). */
  createdFrom?: string;
  createdTo?: string;
  /** The event's id (the envelope's `id`), whole. */
  eventId?: string;
  /** The record the delivery is about (its `element.recordId`), whole. */
  recordId?: string;
  /** The delivery's id or its first hex digits (deliveryIdRange). */
  idPrefix?: string;
}

/**
 * The delivery log's query of a workspace with the filters applied, unordered and unpaged (its
 * indexes: docs/deliveries.md, "The delivery log"). `searchTerm` matches the URL and the event name:
 * the values of the workspace it matches, listed first (`searchMatches`), are the condition.
 */
export function deliveryLogQuery(
  manager: EntityManager,
  workspaceId: string,
  query: DeliveryListQuery,
  search?: SearchMatches,
): SelectQueryBuilder<Delivery> {
  const builder = manager
    .createQueryBuilder(Delivery, 'd')
    .where('d.workspace_id = :workspaceId', { workspaceId });
  if (query.webhookId) builder.andWhere('d.webhook_id = :webhookId', { webhookId: query.webhookId });
  if (query.searchTerm) {
    if (!search) throw new Error('a searchTerm needs its matches (searchMatches) first');
    builder.andWhere(searchCondition(search), {
      term: containsPattern(query.searchTerm),
      searchUrls: search.urls,
      searchEvents: search.events,
    });
  }
  if (query.status) builder.andWhere('d.status = :status', { status: query.status });
  if (query.state) {
    // Retrying deliveries are few: the partial `deliveries_*_retrying_idx` (1764676800000) hold
    // just them, and the planner uses them only for a predicate it can prove, so the status is a
    // literal (one of four fixed values). The other states read the status indexes.
    const { status, nextAttemptScheduled } = stateCondition(query.state);
    builder.andWhere(`d.status = '${status}'`);
    if (nextAttemptScheduled !== null)
      builder.andWhere(`d.next_attempt_at IS ${nextAttemptScheduled ? 'NOT NULL' : 'NULL'}`);
  }
  if (query.event) builder.andWhere('d.event = :event', { event: query.event });
  if (query.url) builder.andWhere('d.url = :url', { url: query.url });
  if (query.createdFrom)
    builder.andWhere('d.created_at >= :createdFrom', { createdFrom: dateBound(query.createdFrom, false) });
  if (query.createdTo)
    builder.andWhere('d.created_at <= :createdTo', { createdTo: dateBound(query.createdTo, true) });
  // What a person knows of one delivery; each is read from an index (1764673200000-delivery-find-indexes).
  if (query.eventId) builder.andWhere('d.event_id = :eventId', { eventId: query.eventId });
  // Compared as text, as stored: in lower case.
  if (query.recordId)
    builder.andWhere(`${RECORD_ID_SQL} = :recordId`, { recordId: query.recordId.toLowerCase() });
  if (query.idPrefix) {
    const range = deliveryIdRange(query.idPrefix);
    if (!range)
      throw ValidationError.of(`idPrefix must be ${DELIVERY_ID_PREFIX_RULE}.`, 'invalid', ['idPrefix']);
    builder.andWhere('d.id BETWEEN :idFrom AND :idTo', { idFrom: range.from, idTo: range.to });
  }
  return builder;
}

/**
 * `searchTerm` as exact values, which the url and event indexes answer in time order; the URL half
 * stays an ILIKE (the trigram index) when the workspace has too many URLs to list. Nothing matched:
 * a condition that is false, which the count answers at once.
 */
function searchCondition(search: SearchMatches): string {
  const parts = [
    search.urls === null
      ? `d.url ILIKE :term ESCAPE '\\'`
      : search.urls.length > 0
        ? 'd.url IN (:...searchUrls)'
        : null,
    search.events.length > 0 ? 'd.event IN (:...searchEvents)' : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? `(${parts.join(' OR ')})` : 'false';
}
