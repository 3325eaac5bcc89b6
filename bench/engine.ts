// The engine ceiling: the same Temporal dev server running an empty workflow that calls one no-op
// activity, on a separate task queue, served by a separate worker in the bench process. Bounded
// concurrency: `concurrency` loops each start a workflow and wait for its result, for a warm-up and
// a measured window; workflows completed per second.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import type { deliveryShapedWorkflow, EngineActivities, emptyWorkflow } from './engine-workflows';
import { sleep, summarize, wallMs, type Summary } from './stats';

export const ENGINE_TASK_QUEUE = 'bench-engine';

/** The search attributes the stack registers for deliveries (workflows/search-attributes.ts). */
const keyword = (name: string) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);
const DELIVERY_KEYS = ['WorkspaceId', 'WebhookId', 'EventName', 'EventId', 'DeliveryId'].map(keyword);
const DELIVERY_STATUS = keyword('DeliveryStatus');

/** What the dispatcher attaches to a delivery workflow's start (src/deliveries/workflow-starter.ts). */
function deliveryVisibility(id: string) {
  const url = 'http://127.0.0.1/hook';
  return {
    typedSearchAttributes: [
      ...DELIVERY_KEYS.map((key): SearchAttributePair => ({ key, value: `${key.name}-${id}` })),
      { key: DELIVERY_STATUS, value: 'pending' } as SearchAttributePair,
    ],
    memo: { url, event: 'record.created' },
    staticSummary: `record.created → ${url}`,
  };
}

export type EngineShape = 'empty' | 'delivery';

export interface EngineReport {
  rate: number;
  completed: number;
  failed: number;
  latency: Summary;
  concurrency: number;
  shape: EngineShape;
}

export interface EngineRun {
  /** Starts the load and resolves when the measured window is over and in-flight workflows ended. */
  measure: (options: {
    shape: EngineShape;
    concurrency: number;
    warmupMs: number;
    durationMs: number;
    onWindow?: (phase: 'start' | 'end') => void;
  }) => Promise<EngineReport>;
  close: () => Promise<void>;
}

/** Connects, bundles the workflow and starts the worker (a few seconds), ready to measure. */
export async function prepareEngine(options: { address: string; namespace: string }): Promise<EngineRun> {
  const nativeConnection = await NativeConnection.connect({ address: options.address });
  const activities: EngineActivities = { noop: async () => undefined };
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace: options.namespace,
    taskQueue: ENGINE_TASK_QUEUE,
    workflowsPath: require.resolve('./engine-workflows'),
    activities,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: options.address });
  const client = new Client({ connection, namespace: options.namespace });
  const runId = Date.now().toString(36);
  let sequence = 0;

  return {
    measure: async ({ shape, concurrency, warmupMs, durationMs, onWindow }) => {
      const startedAt = wallMs();
      const windowStart = startedAt + warmupMs;
      const windowEnd = windowStart + durationMs;
      const latencies: number[] = [];
      let completed = 0;
      let failed = 0;
      const loop = async () => {
        while (wallMs() < windowEnd) {
          const begin = wallMs();
          try {
            const workflowId = `bench-engine-${runId}-${sequence++}`;
            if (shape === 'empty')
              await client.workflow.execute<typeof emptyWorkflow>('emptyWorkflow', {
                taskQueue: ENGINE_TASK_QUEUE,
                workflowId,
              });
            else
              await client.workflow.execute<typeof deliveryShapedWorkflow>('deliveryShapedWorkflow', {
                taskQueue: ENGINE_TASK_QUEUE,
                workflowId,
                ...deliveryVisibility(workflowId),
              });
            const end = wallMs();
            if (begin >= windowStart && end <= windowEnd) {
              completed++;
              latencies.push(end - begin);
            }
          } catch {
            failed++;
            await sleep(100);
          }
        }
      };
      const windowTimers = onWindow
        ? [
            setTimeout(() => onWindow('start'), warmupMs),
            setTimeout(() => onWindow('end'), warmupMs + durationMs),
          ]
        : [];
      await Promise.all(Array.from({ length: concurrency }, loop));
      windowTimers.forEach(clearTimeout);
      return {
        rate: completed / (durationMs / 1000),
        completed,
        failed,
        latency: summarize(latencies),
        concurrency,
        shape,
      };
    },
    close: async () => {
      await connection.close();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch(() => undefined);
      await nativeConnection.close();
    },
  };
}
