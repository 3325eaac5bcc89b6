import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { AttemptSignal } from '../../shared/deliveries/endpoint-state';
import type { AttemptOutcome } from '../engine/delivery-attempts';
import type { DeliveryCapacity } from './delivery-capacity';
import type { LaneObserver } from './delivery-lanes';
import { EndpointStatesRepository, waitingByWebhook } from '../store';

/** What one attempt came to, as the metrics name it. */
type AttemptResult = 'delivered' | 'error_status' | 'timeout' | 'no_response' | 'not_sent';

function resultOf(outcome: AttemptOutcome, signal: AttemptSignal | null): AttemptResult {
  if (outcome.status === 'delivered') return 'delivered';
  if (!signal) return 'not_sent';
  if (signal.kind === 'timeout') return 'timeout';
  if (signal.kind === 'no-response') return 'no_response';
  return 'error_status';
}

/**
 * The delivery metrics of one process (docs/capacity.md, lists each):
 * attempts by lane and result, their durations, deliveries that ended, attempts sent to the slow
 * lane and why — counted as they happen; attempts in flight per lane and endpoint and each lane's
 * slots — read from this worker's lanes at each scrape; deliveries waiting for capacity and
 * endpoints that are not healthy — read from the database at each scrape (every process reports
 * the same values for these: aggregate them with max, not sum).
 */
export function deliveryMetrics(
  registry: Registry,
  deps: { dataSource: DataSource; capacity?: DeliveryCapacity; slowLaneSlots: number },
): LaneObserver {
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Delivery attempts made, by lane, workspace and result (delivered, error_status, timeout, no_response, not_sent).',
    labelNames: ['lane', 'workspace', 'result'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'How long an attempt took, from its start to its recorded outcome (the request times out at 5 s).',
    labelNames: ['lane', 'result'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
    registers: [registry],
  });
  const ended = new Counter({
    name: 'webhook_deliveries_ended_total',
    help: 'Deliveries whose last attempt was made, by workspace and final status (delivered or failed).',
    labelNames: ['workspace', 'status'] as const,
    registers: [registry],
  });
  const deferred = new Counter({
    name: 'webhook_lane_deferred_total',
    help: 'Attempts the fast lane handed to the slow lane, by workspace and reason.',
    labelNames: ['workspace', 'reason'] as const,
    registers: [registry],
  });

  const { capacity } = deps;
  new Gauge({
    name: 'webhook_lane_in_flight',
    help: 'Attempts running now in this worker, by lane, workspace and webhook (endpoints with none are left out).',
    labelNames: ['lane', 'workspace', 'webhook'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [lane, budget] of capacity
        ? ([
            ['fast', capacity.fast],
            ['slow', capacity.slow],
          ] as const)
        : [])
        for (const endpoint of budget.endpoints())
          this.set({ lane, workspace: endpoint.workspaceId, webhook: endpoint.webhookId }, endpoint.inFlight);
    },
  });
  new Gauge({
    name: 'webhook_endpoint_window',
    help: "Attempts an endpoint may have in flight in this worker's fast lane now (its window, grown by deliveries, shrunk by timeouts, 429s and 503s), for endpoints with attempts in flight.",
    labelNames: ['workspace', 'webhook'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const endpoint of capacity?.fast.endpoints() ?? [])
        this.set({ workspace: endpoint.workspaceId, webhook: endpoint.webhookId }, endpoint.window);
    },
  });
  new Gauge({
    name: 'webhook_lane_slots',
    help: "Attempts each lane of this worker runs at once at most (the slow lane's slots are its Temporal worker's).",
    labelNames: ['lane'] as const,
    registers: [registry],
    collect() {
      this.reset();
      if (!capacity) return;
      this.set({ lane: 'fast' }, capacity.fast.limits.slots);
      this.set({ lane: 'slow' }, deps.slowLaneSlots);
    },
  });
  new Gauge({
    name: 'webhook_deliveries_waiting',
    help: 'Deliveries waiting for capacity, by workspace, webhook and where: held (not started yet) or slow_lane (queued).',
    labelNames: ['workspace', 'webhook', 'where'] as const,
    registers: [registry],
    async collect() {
      const rows = await waitingByWebhook(deps.dataSource);
      this.reset();
      for (const row of rows) {
        const labels = { workspace: row.workspace_id, webhook: row.webhook_id };
        if (row.held) this.set({ ...labels, where: 'held' }, row.held);
        if (row.queued) this.set({ ...labels, where: 'slow_lane' }, row.queued);
      }
    },
  });
  new Gauge({
    name: 'webhook_endpoint_unhealthy_since_seconds',
    help: 'Endpoints that are not healthy, by workspace, webhook and state (degraded or failing): since when, in Unix seconds.',
    labelNames: ['workspace', 'webhook', 'state'] as const,
    registers: [registry],
    async collect() {
      const endpoints = await new EndpointStatesRepository(deps.dataSource.manager).unhealthy();
      this.reset();
      for (const endpoint of endpoints)
        this.set(
          { workspace: endpoint.workspaceId, webhook: endpoint.webhookId, state: endpoint.state },
          endpoint.since.getTime() / 1000,
        );
    },
  });

  return {
    // Typed by LaneObserver, the return type.
    attempted(lane, key, outcome, seconds, signal) {
      const result = resultOf(outcome, signal);
      attempts.inc({ lane, workspace: key.workspaceId, result });
      durations.observe({ lane, result }, seconds);
      if (outcome.done) ended.inc({ workspace: key.workspaceId, status: outcome.status });
    },
    deferred(key, why) {
      deferred.inc({ workspace: key.workspaceId, reason: why });
    },
  };
}
