import { RETIRED_EVENTS } from '../../shared/event-catalog';

/**
 * The 15 retired names as an SQL list of literals. The partial index
 * `deliveries_workspace_legacy_event_idx` (1764684000000) holds only the deliveries of these
 * events, and the planner reads it only for a predicate it can prove, so the store's query
 * (src/deliveries/store/legacy-events.repository.ts) spells the same list. The names are the catalog's constants (letters and a dot), never input.
 */
export const RETIRED_EVENTS_SQL = `(${RETIRED_EVENTS.map((name) => `'${name}'`).join(', ')})`;
