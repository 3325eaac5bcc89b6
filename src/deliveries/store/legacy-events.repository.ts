import type { EntityManager } from 'typeorm';
import { RETIRED_EVENTS } from '../../shared/events/event-catalog';

/**
 * The 15 retired names as an SQL list of literals. The partial index
 * `deliveries_workspace_legacy_event_idx` (migration 1764684000000, which spells the list as it
 * was then) holds only the deliveries of these events, and the planner reads it only for a
 * predicate it can prove, so the query below repeats the list (the query-plan test in
 * test/deliveries/log/legacy-events.test.ts fails if the two part). The names are the catalog's
 * constants (letters and a dot), never input.
 */
const RETIRED_EVENTS_SQL = `(${RETIRED_EVENTS.map((name) => `'${name}'`).join(', ')})`;

/** The query of `loadLegacyEvents`: $1 the workspace, $2 the retired names in catalog order. */
export const LEGACY_EVENTS_SQL = `
  SELECT retired.name FROM unnest($2::text[]) WITH ORDINALITY AS retired (name, position)
   WHERE EXISTS (SELECT 1 FROM deliveries d
                  WHERE d.workspace_id = $1 AND d.event IN ${RETIRED_EVENTS_SQL} AND d.event = retired.name)
      OR EXISTS (SELECT 1 FROM webhooks w WHERE w.workspace_id = $1 AND retired.name = ANY (w.events))
   ORDER BY retired.position`;

/**
 * The retired events a workspace still has (docs/messaging.md, "Retired (legacy) events"): those
 * its deliveries carry (imported ones outlive their webhook) or its webhooks still subscribe to,
 * in catalog order. Fifteen probes of the partial index, each answered by its first entry, and one
 * look at the workspace's webhooks: bounded by the catalog, not by the size of the log.
 */
export async function loadLegacyEvents(manager: EntityManager, workspaceId: string): Promise<string[]> {
  const rows = (await manager.query(LEGACY_EVENTS_SQL, [workspaceId, RETIRED_EVENTS])) as { name: string }[];
  return rows.map((row) => row.name);
}
