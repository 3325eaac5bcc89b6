// The Deliveries page in the web app: its filters (applied by the server and kept in the page's
// address), the labels of statuses and states, and the small rules its lists and Event Details
// share. No React here: the page and its dialogs use these.
import { isRetiredEvent } from '../../shared/events/event-catalog';
import { deliveryIdRange, isWholeId, shortId } from '../../shared/deliveries/delivery-ids';
import type { DeliveryListQuery, DeliveryPage, DeliveryState, DeliveryStatus, DeliveryView } from '../api';
import { createdBound, DELIVERED_EVENT_NAMES } from '../webhooks';

/**
 * The spec's four statuses, as the Status column and the Status filter name them
 * (docs/deliveries.md#the-delivery-log).
 */
export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** The two states of a Failed delivery: its next attempt scheduled, or none to follow. */
export type FailedState = Extract<DeliveryState, 'retrying' | 'failed'>;

/** The choices that narrow the Status filter's Failed (the server's `state`). */
export const FAILED_STATE_LABELS: Record<FailedState, string> = {
  retrying: 'Retrying (next attempt scheduled)',
  failed: 'Failed for good (no attempt follows)',
};

const isStatus = (value: string): value is DeliveryStatus => value in STATUS_LABELS;
const isFailedState = (value: string): value is FailedState => value in FAILED_STATE_LABELS;

/**
 * The Deliveries page's event filter: the catalog, then the retired events this workspace has
 * (`legacyEvents`, from the server), and a name the address asks for.
 */
export function eventFilterOptions(legacyEvents: readonly string[], asked: string): string[] {
  return [...new Set([...DELIVERED_EVENT_NAMES, ...legacyEvents.filter(isRetiredEvent), asked])].filter(
    Boolean,
  );
}

/**
 * The Deliveries page's filters, kept in the page's URL (`/deliveries?status=failed&…`) so a
 * link or a reload shows the same log. Dates are local calendar days (`YYYY-MM-DD`), or exact
 * ISO times when a chart bar or the Dashboard opened the log.
 */
export type DeliveryFilters = {
  /** Part of the event or of the URL (the server's `searchTerm`). */
  search: string;
  /** The Status filter: one of the spec's four statuses (Failed includes the retrying ones). */
  status: DeliveryStatus | '';
  /**
   * Which Failed deliveries (a chart segment or the Dashboard asks for one): those retrying, or
   * those failed for good; '' for both. Set only with `status` Failed.
   */
  state: FailedState | '';
  /** One event name, or '' for all. */
  event: string;
  /** The URL a delivery went to, exactly. */
  url: string;
  webhookId: string;
  createdFrom: string;
  createdTo: string;
  /** A delivery id, or its first 8 or more hex digits (the server's `idPrefix`). */
  idPrefix: string;
  /** An event id, whole. */
  eventId: string;
  /** A record id, whole. */
  recordId: string;
};

export const NO_DELIVERY_FILTERS: DeliveryFilters = {
  search: '',
  status: '',
  state: '',
  event: '',
  url: '',
  webhookId: '',
  createdFrom: '',
  createdTo: '',
  idPrefix: '',
  eventId: '',
  recordId: '',
};

/** The id filters, each with the rule its text must meet before it is sent. */
export const ID_FILTERS = [
  { name: 'idPrefix', label: 'Delivery id', valid: (text: string) => deliveryIdRange(text) !== null },
  { name: 'eventId', label: 'Event id', valid: isWholeId },
  { name: 'recordId', label: 'Record id', valid: isWholeId },
] as const;

/** The id filters whose text cannot be sent as it is (too short, not an id), by label. */
export const invalidIdFilters = (filters: DeliveryFilters) =>
  ID_FILTERS.filter(({ name, valid }) => filters[name].trim() !== '' && !valid(filters[name]));

const FILTER_NAMES = Object.keys(NO_DELIVERY_FILTERS) as (keyof DeliveryFilters)[];

/** The filters a Deliveries page address holds (`location.search`); unknown values are dropped. */
export function deliveryFiltersOf(search: string): DeliveryFilters {
  const params = new URLSearchParams(search);
  const read = (name: keyof DeliveryFilters) => params.get(name) ?? '';
  const status = read('status');
  const asked = read('state');
  // Links made while the filter offered Retrying as a status of its own say `status=retrying`.
  const state = isFailedState(asked) ? asked : status === 'retrying' ? 'retrying' : '';
  return {
    search: read('search'),
    status: state ? 'failed' : isStatus(status) ? status : '',
    state,
    event: read('event'),
    url: read('url'),
    webhookId: read('webhookId'),
    createdFrom: read('createdFrom'),
    createdTo: read('createdTo'),
    idPrefix: read('idPrefix'),
    eventId: read('eventId'),
    recordId: read('recordId'),
  };
}

/** The Status filter (and its Failed refinement) that lists the deliveries of one state. */
export function statusFilterOf(state: DeliveryState): Pick<DeliveryFilters, 'status' | 'state'> {
  return state === 'retrying' || state === 'failed'
    ? { status: 'failed', state }
    : { status: state, state: '' };
}

/** The Deliveries page's address for these filters ("Show deliveries": `{ url }`, exact). */
export function deliveriesPathOf(filters: Partial<DeliveryFilters>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `/deliveries?${query}` : '/deliveries';
}

export const hasDeliveryFilters = (filters: DeliveryFilters) =>
  FILTER_NAMES.some((name) => filters[name].trim() !== '');

/** The server's query for the filters: all of them are applied by the database. */
export function deliveryQueryOf(filters: DeliveryFilters): DeliveryListQuery {
  const query: DeliveryListQuery = {};
  const search = filters.search.trim();
  if (search) query.searchTerm = search;
  // A state implies its status (Failed); alone it reads the partial index of the retrying ones.
  if (filters.state) query.state = filters.state;
  else if (filters.status) query.status = filters.status;
  if (filters.event) query.event = filters.event;
  const url = filters.url.trim();
  if (url) query.url = url;
  if (filters.webhookId) query.webhookId = filters.webhookId;
  const from = createdBound(filters.createdFrom, false);
  if (from) query.createdFrom = from;
  const to = createdBound(filters.createdTo, true);
  if (to) query.createdTo = to;
  // An id is sent once it is one (invalidIdFilters says which is not yet).
  for (const { name, valid } of ID_FILTERS) {
    const id = filters[name].trim();
    if (id && valid(id)) query[name] = id;
  }
  return query;
}

/** How many deliveries a list holds: "1 delivery", "1,234 deliveries", "1,000+ deliveries". */
export function deliveryCount(total: DeliveryPage['total']): string {
  const count = `${total.count.toLocaleString('en-US')}${total.capped ? '+' : ''}`;
  return total.count === 1 && !total.capped ? '1 delivery' : `${count} deliveries`;
}

/** A webhook as the delivery log names it: its description, else its short id. */
export function webhookLabel(webhook: Pick<DeliveryView['webhook'], 'id' | 'description'>): string {
  return webhook.description?.trim() || `Webhook ${shortId(webhook.id)}`;
}

/** True while a delivery can still change (the lists and Event Details read it again). */
export const isUnfinished = (status: DeliveryStatus) => status === 'pending' || status === 'sending';

/** The newest rows first, each once: `fresh` (a reread first page) replaces what it holds. */
export function mergeDeliveries(fresh: DeliveryView[], shown: DeliveryView[]): DeliveryView[] {
  const ids = new Set(fresh.map((delivery) => delivery.id));
  return [...fresh, ...shown.filter((delivery) => !ids.has(delivery.id))].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  );
}

/** True when a payload holds a value the viewer's role cannot read. */
export function hasRestrictedValues(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRestrictedValues);
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return object.state === 'restricted' || Object.values(object).some(hasRestrictedValues);
  }
  return false;
}

/** A duration as people read it: `85 ms`, `1.2 s`. */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
