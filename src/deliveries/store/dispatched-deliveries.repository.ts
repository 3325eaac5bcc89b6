import type { EntityManager } from 'typeorm';
import { entityFromRow } from '../../db/entity-from-row';
import { columnsOf, PreparedStatement } from '../../db/prepared';
import type { TraceCarrier } from '../../tracing/trace-carrier';
import { Delivery } from './delivery.entity';

/** The outboxes' tables, whose events dispatch marks dispatched. */
export type OutboxTable = 'record_events' | 'stored_events';

/** The deliveries of one dispatch statement, a column per array, one element per delivery. */
export interface DispatchedDeliveries {
  workspaceIds: string[];
  webhookIds: string[];
  eventIds: string[];
  events: string[];
  urls: string[];
  /** The element as JSON text, or null. */
  elements: (string | null)[];
  sourcesVersions: number[];
  /** Whether each is held (`waiting_since` set) rather than started now. */
  held: boolean[];
  /**
   * Whether the dispatching process starts the workflows itself: those not held are born claimed, so
   * no worker's pass (claimUnstarted) starts them too.
   */
  startedHere: boolean;
  /**
   * The trace the deliveries' workflow starts continue (the write's, while tracing is on), kept with
   * each; null keeps the statement the untraced one, which writes no such column.
   */
  traceContext: TraceCarrier | null;
}

/**
 * Dispatch's one statement: a Pending delivery per match (none twice for a webhook and event,
 * whoever dispatched it first) and the outbox's events marked dispatched; the deliveries it made.
 */
export async function insertDispatched(
  manager: EntityManager,
  outboxTable: OutboxTable,
  eventIds: string[],
  deliveries: DispatchedDeliveries,
): Promise<Delivery[]> {
  const traced = deliveries.traceContext !== null;
  const rows = await insertingMarking(outboxTable, traced).run(manager, [
    eventIds,
    deliveries.workspaceIds,
    deliveries.webhookIds,
    deliveries.eventIds,
    deliveries.events,
    deliveries.urls,
    deliveries.elements,
    deliveries.sourcesVersions,
    deliveries.held,
    deliveries.startedHere,
    ...(traced ? [JSON.stringify(deliveries.traceContext)] : []),
  ]);
  return rows.map((row) => entityFromRow(manager, Delivery, row));
}

/** These deliveries' workflows started. */
export async function markWorkflowsStarted(manager: EntityManager, deliveryIds: string[]): Promise<void> {
  await MARK_STARTED.run(manager, [deliveryIds]);
}

/**
 * Up to 500 deliveries created before `before` whose workflow never started, oldest first (the
 * dispatch sweep's); held ones are the release's to start, not these.
 */
export async function unstartedBefore(manager: EntityManager, before: Date): Promise<Delivery[]> {
  return (
    manager
      .createQueryBuilder(Delivery, 'd')
      // A held delivery is started by the release of held deliveries, not by the sweep.
      .where('d.workflow_started_at IS NULL AND d.waiting_since IS NULL AND d.created_at < :before', {
        before,
      })
      .orderBy('d.created_at', 'ASC')
      .take(500)
      .getMany()
  );
}

/**
 * Claims up to `limit` deliveries, oldest first, whose workflow was left for a worker process to
 * start (dispatched by an API process) and nobody claimed: one statement, rows another process is
 * claiming skipped, so two workers never start the same delivery. A claimed delivery that does not
 * start is the dispatch sweep's, like any other; held ones are the release's, and resends and test
 * events are started by whoever made them.
 */
export async function claimUnstarted(manager: EntityManager, limit: number): Promise<Delivery[]> {
  const rows = await CLAIM_UNSTARTED.run(manager, [limit]);
  return rows.map((row) => entityFromRow(manager, Delivery, row));
}

const CLAIM_UNSTARTED = new PreparedStatement(
  (manager) =>
    `UPDATE deliveries SET start_claimed_at = now()
      WHERE id IN (SELECT id FROM deliveries
                    WHERE workflow_started_at IS NULL AND waiting_since IS NULL AND start_claimed_at IS NULL
                      AND trigger = 'event'
                    ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${columnsOf(manager, Delivery, 'deliveries')}`,
);

const MARK_STARTED = new PreparedStatement(
  `UPDATE deliveries SET workflow_started_at = now() WHERE id = ANY($1::uuid[])`,
);

const insertMarkingStatements = new Map<string, PreparedStatement>();

/**
 * Dispatch's one statement for an outbox table (record_events or stored_events); `traced`, its
 * variant that also keeps one trace context ($11) with every delivery it makes.
 */
function insertingMarking(table: OutboxTable, traced: boolean): PreparedStatement {
  const key = `${table}${traced ? ' traced' : ''}`;
  let statement = insertMarkingStatements.get(key);
  if (!statement) {
    const [traceColumn, traceValue] = traced ? [', trace_context', ', $11::jsonb'] : ['', ''];
    statement = new PreparedStatement(
      (manager) =>
        `WITH dispatched AS (UPDATE ${table} SET dispatched_at = statement_timestamp() WHERE id = ANY($1::uuid[]))
         INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
                                 waiting_since, start_claimed_at${traceColumn})
         SELECT workspace_id, webhook_id, event_id, event, url, element, 'event', sources_version,
                CASE WHEN held THEN statement_timestamp() END,
                CASE WHEN $10::boolean AND NOT held THEN statement_timestamp() END${traceValue}
           FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::jsonb[], $8::integer[],
                       $9::boolean[])
             AS m(workspace_id, webhook_id, event_id, event, url, element, sources_version, held)
         ON CONFLICT (webhook_id, event_id) WHERE trigger = 'event' DO NOTHING
         RETURNING ${columnsOf(manager, Delivery, 'deliveries')}`,
    );
    insertMarkingStatements.set(key, statement);
  }
  return statement;
}
