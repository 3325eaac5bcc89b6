// The engine alone, on the same Temporal dev server, on task queues of its own served by workers in
// the bench process. Bounded concurrency: `concurrency` loops each start a workflow and wait for it,
// for a warm-up and a measured window; workflows per second that ended in the window.
//   - The ceilings (regular activity, no eager start): an empty workflow, and one shaped like a
//     delivery's visibility; the client has its own connection and waits for the result.
//   - The floor: the delivery's engine shape exactly (workflows/delivery.workflow.ts started as
//     src/deliveries/engine/workflow-starter.ts does, on the worker's connection as src/temporal/client.ts
//     shares it), its attempt a no-op local activity. The loop waits for the attempt to run, as
//     the delivery path's closed loop waits for the POST, not for the result (a poll on the history
//     the dispatcher never makes).
import { Context } from '@temporalio/activity';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import type {
  deliveryShapedWorkflow,
  EngineActivities,
  emptyWorkflow,
  floorWorkflow,
} from './engine-workflows';
import { sleep, summarize, wallMs, type Summary } from './stats';

export const ENGINE_TASK_QUEUE = 'bench-engine';
export const FLOOR_TASK_QUEUE = 'bench-engine-floor';

/** The real worker's slots (src/app/temporal-worker.ts, default lanes): eager start needs a free one. */
const FLOOR_SLOTS = 250;
/** A floor attempt slower than this counts as failed and its loop moves on. */
const ATTEMPT_TIMEOUT_MS = 30_000;

/** The search attributes the stack registers for deliveries (src/shared/temporal/search-attributes.ts). */
const keyword = (name: string) => defineSearchAttributeKey(name, SearchAttributeType.KEYWORD);
const DELIVERY_KEYS = ['WorkspaceId', 'WebhookId', 'EventName', 'EventId', 'DeliveryId'].map(keyword);
const DELIVERY_STATUS = keyword('DeliveryStatus');

interface DeliveryIds {
  workspaceId: string;
  webhookId: string;
  eventId: string;
  deliveryId: string;
}

/** One workspace and one webhook, as in the bench's own load; an event and a delivery per workflow. */
const idsOf = (runId: string, workflowId: string): DeliveryIds => ({
  workspaceId: `workspace-${runId}`,
  webhookId: `webhook-${runId}`,
  eventId: `event-${workflowId}`,
  deliveryId: workflowId,
});

/** What the dispatcher attaches to a delivery workflow's start (src/deliveries/engine/workflow-starter.ts). */
function deliveryVisibility(ids: DeliveryIds) {
  const url = 'http://127.0.0.1/hook';
  const event = 'record.created';
  const values = [ids.workspaceId, ids.webhookId, event, ids.eventId, ids.deliveryId];
  return {
    typedSearchAttributes: [
      ...DELIVERY_KEYS.map((key, i): SearchAttributePair => ({ key, value: values[i]! })),
      { key: DELIVERY_STATUS, value: 'pending' } as SearchAttributePair,
    ],
    memo: { url, event },
    staticSummary: `${event} → ${url}`,
  };
}

export type EngineShape = 'empty' | 'delivery' | 'floor';

export interface EngineReport {
  rate: number;
  completed: number;
  failed: number;
  latency: Summary;
  concurrency: number;
  shape: EngineShape;
  /** The floor: workflows started, and how many of them the server answered with their first task. */
  starts?: { total: number; eager: number };
  /** The floor: its workflows not Completed a few seconds after the load (visibility); should be 0. */
  unfinished?: number;
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

/** The floor's attempts, each telling the loop that waits for it that it ran. */
function attempts() {
  const waiting = new Map<string, () => void>();
  const activity: EngineActivities['attempt'] = async () => {
    const workflowId = Context.current().info.workflowExecution?.workflowId;
    if (workflowId) waiting.get(workflowId)?.();
    return { status: 'delivered', done: true };
  };
  /** Registered before the start: an eager workflow's attempt can run before the start returns. */
  const expect = (workflowId: string) => {
    let timer: NodeJS.Timeout | undefined;
    const ran = new Promise<void>((resolve, reject) => {
      waiting.set(workflowId, resolve);
      timer = setTimeout(() => reject(new Error(`no attempt of ${workflowId}`)), ATTEMPT_TIMEOUT_MS);
    });
    const forget = () => (clearTimeout(timer), waiting.delete(workflowId));
    return { ran, forget };
  };
  return { activity, expect };
}

/** Connects, bundles the workflows and starts both workers (a few seconds), ready to measure. */
export async function prepareEngine(options: { address: string; namespace: string }): Promise<EngineRun> {
  const { namespace } = options;
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./engine-workflows') });
  const floorAttempts = attempts();
  const activities: EngineActivities = { noop: async () => undefined, attempt: floorAttempts.activity };

  const nativeConnection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection: nativeConnection,
    namespace,
    taskQueue: ENGINE_TASK_QUEUE,
    workflowBundle,
    activities,
  });
  const connection = await Connection.connect({ address: options.address });
  const client = new Client({ connection, namespace });

  // The floor's client shares its worker's connection: the SDK allows eager start only so.
  const floorConnection = await NativeConnection.connect({ address: options.address });
  const floorWorker = await Worker.create({
    connection: floorConnection,
    namespace,
    taskQueue: FLOOR_TASK_QUEUE,
    workflowBundle,
    activities,
    maxConcurrentWorkflowTaskExecutions: FLOOR_SLOTS,
    maxConcurrentLocalActivityExecutions: FLOOR_SLOTS,
  });
  const floorClient = new Client({ connection: floorConnection, namespace });
  const running = [worker.run(), floorWorker.run()];

  const runId = Date.now().toString(36);
  let sequence = 0;
  const starts = { total: 0, eager: 0 };

  /** One workflow of the shape, from its start until the loop may start the next. */
  const once = async (shape: EngineShape, workflowId: string): Promise<void> => {
    const ids = idsOf(runId, workflowId);
    if (shape === 'empty')
      await client.workflow.execute<typeof emptyWorkflow>('emptyWorkflow', {
        taskQueue: ENGINE_TASK_QUEUE,
        workflowId,
      });
    else if (shape === 'delivery')
      await client.workflow.execute<typeof deliveryShapedWorkflow>('deliveryShapedWorkflow', {
        taskQueue: ENGINE_TASK_QUEUE,
        workflowId,
        ...deliveryVisibility(ids),
      });
    else {
      const attempt = floorAttempts.expect(workflowId);
      try {
        const handle = await floorClient.workflow.start<typeof floorWorkflow>('floorWorkflow', {
          taskQueue: FLOOR_TASK_QUEUE,
          workflowId,
          requestEagerStart: true,
          args: [{ deliveryId: ids.deliveryId, workspaceId: ids.workspaceId, webhookId: ids.webhookId }],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          priority: { fairnessKey: ids.workspaceId },
          ...deliveryVisibility(ids),
        });
        starts.total++;
        if (handle.eagerlyStarted) starts.eager++;
        await attempt.ran;
      } finally {
        attempt.forget();
      }
    }
  };

  return {
    measure: async ({ shape, concurrency, warmupMs, durationMs, onWindow }) => {
      const startedAt = wallMs();
      const windowStart = startedAt + warmupMs;
      const windowEnd = windowStart + durationMs;
      const latencies: number[] = [];
      let completed = 0;
      let failed = 0;
      Object.assign(starts, { total: 0, eager: 0 });
      const loop = async () => {
        while (wallMs() < windowEnd) {
          const begin = wallMs();
          try {
            await once(shape, `bench-engine-${runId}-${sequence++}`);
            // Every workflow that ended in the window counts, as the delivery path counts receipts.
            const end = wallMs();
            if (end >= windowStart && end <= windowEnd) completed++;
            if (begin >= windowStart && end <= windowEnd) latencies.push(end - begin);
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
        ...(shape === 'floor' && {
          starts: { ...starts },
          unfinished: await unfinished(floorClient, FLOOR_TASK_QUEUE),
        }),
      };
    },
    close: async () => {
      await connection.close();
      for (const each of [worker, floorWorker]) if (each.getState() === 'RUNNING') each.shutdown();
      await Promise.all(running.map((run) => run.catch(() => undefined)));
      await nativeConnection.close();
      await floorConnection.close();
    },
  };
}

/**
 * The queue's workflows not Completed, once the last ones had a moment to finish and visibility
 * (read twice a second) caught up: a floor whose last workflow task failed would look fast while
 * its workflows never completed. Undefined when visibility cannot count.
 */
async function unfinished(client: Client, taskQueue: string): Promise<number | undefined> {
  const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus != 'Completed'`;
  let count: number | undefined;
  for (let tries = 0; tries < 10; tries++) {
    await sleep(1000);
    count = await client.workflow.count(query).then(
      (answer) => answer.count,
      () => undefined,
    );
    if (!count) return count;
  }
  return count;
}
