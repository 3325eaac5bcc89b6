import { Counter, type Registry } from 'prom-client';

/**
 * `webhook_workflow_starts_total{eager}`: delivery workflows started by this process, and whether
 * the server handed the first workflow task straight back to this process's worker (eager) or
 * dispatched it through its task queue. Returns what the starter calls on each start.
 */
export function workflowStartMetrics(registry: Registry): (eagerly: boolean) => void {
  const starts = new Counter({
    name: 'webhook_workflow_starts_total',
    help: 'Delivery workflows this process started, by whether their first task ran eagerly in this process (true) or went through the task queue (false).',
    labelNames: ['eager'] as const,
    registers: [registry],
  });
  const eager = starts.labels('true');
  const dispatched = starts.labels('false');
  return (eagerly) => (eagerly ? eager : dispatched).inc();
}
