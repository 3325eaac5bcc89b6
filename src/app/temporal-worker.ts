import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import { slowLaneQueue } from '../shared/deliveries/lanes';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { installTemporalRuntime } from '../temporal/runtime';
import { configureSlowLane } from '../temporal/task-queue-config';
import { workflowCode, type WorkflowCode } from '../temporal/workflow-bundle';
import { tracingActivityInterceptors, tracingSinks, WORKFLOW_TRACING_MODULE } from '../temporal/tracing';
import { currentTracing } from '../tracing/tracing';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when both workers have stopped. */
  done: Promise<void>;
  stop: () => Promise<void>;
}

/** The two lanes' sizes (docs/capacity.md). */
export interface LaneSizes {
  fastSlots: number;
  slowSlots: number;
  /** Attempts per second the slow lane starts in all, and per workspace. */
  slowRate: number;
  slowRatePerWorkspace: number;
}

/** The lanes' sizes as configured (DELIVERY_FAST_LANE_SLOTS, DELIVERY_SLOW_LANE_*). */
export function laneSizes(config: Config): LaneSizes {
  return {
    fastSlots: config.DELIVERY_FAST_LANE_SLOTS,
    slowSlots: config.DELIVERY_SLOW_LANE_SLOTS,
    slowRate: config.DELIVERY_SLOW_LANE_RATE,
    slowRatePerWorkspace: config.DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE,
  };
}

/**
 * Workflow tasks that run no fast-lane attempt (a timer firing, an attempt sent to the slow lane, a
 * resend's parent) need slots too; a fast-lane attempt holds its workflow task's slot while it runs.
 */
const SLOTS_BESIDE_THE_FAST_LANE = 50;

/** Where and how a worker process polls. */
export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  logger: Logger;
  lanes: LaneSizes;
}

/**
 * Starts a worker process's workers on its own connection, or, given `shared` (the API client's
 * NativeConnection: eager start needs both on one connection), on that one, leaving closing it to
 * its owner.
 */
export async function startWorker(
  options: WorkerOptions,
  deps: ActivityDeps,
  shared?: NativeConnection,
): Promise<RunningWorker> {
  installTemporalRuntime(options.logger);
  const connection = shared ?? (await NativeConnection.connect({ address: options.address }));
  const running = await runWorkers(connection, options, deps);
  return shared ? running : { ...running, done: running.done.finally(() => connection.close()) };
}

/**
 * The two workers of a worker process, on `connection`: one polling the service's task queue with
 * every workflow and activity (fast-lane attempts run there as local activities), one polling the
 * slow lane's task queue for the attempts sent there.
 */
export async function runWorkers(
  connection: NativeConnection,
  options: Omit<WorkerOptions, 'address'>,
  deps: ActivityDeps,
  /**
   * By default the bundle `npm run build` made, so a restarted worker polls within a second or
   * two; the tests pass the one bundle of their run.
   */
  code: WorkflowCode = workflowCode(),
): Promise<RunningWorker> {
  const { lanes } = options;
  await configureSlowLane(
    connection,
    options.namespace,
    slowLaneQueue(options.taskQueue),
    lanes,
    options.logger,
  );
  if (code.bundledAtStartBecause) {
    options.logger.info({ reason: code.bundledAtStartBecause }, 'bundling the workflow code at start');
  }
  const activities = createActivities(deps);
  // An attempt waiting up to 5 s for a receiver costs a socket, not CPU: the slots are sized for
  // the lanes' budgets, which bound what one workspace or endpoint may hold of them.
  const taskSlots = lanes.fastSlots + SLOTS_BESIDE_THE_FAST_LANE;
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...code.option,
    activities,
    interceptors: {
      // Workflows make spans only in a process that traces (a bundle made at start takes them here;
      // a prebuilt one has them when it was bundled traced: workflow-bundle.ts).
      workflowModules:
        'workflowsPath' in code.option && currentTracing() ? [WORKFLOW_TRACING_MODULE] : undefined,
      activity: tracingActivityInterceptors(),
    },
    sinks: tracingSinks(),
    maxConcurrentWorkflowTaskExecutions: taskSlots,
    maxConcurrentLocalActivityExecutions: taskSlots,
    // Every workflow whose attempt is in flight stays cached, and as many again waiting for a retry
    // (the SDK caps the task slots at the cache's size, which it otherwise derives from the heap).
    maxCachedWorkflows: 2 * taskSlots,
  });
  const slowLane = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: slowLaneQueue(options.taskQueue),
    activities: { attemptInSlowLane: activities.attemptInSlowLane },
    interceptors: { activity: tracingActivityInterceptors() },
    maxConcurrentActivityTaskExecutions: lanes.slowSlots,
  });
  const stopBoth = () => {
    for (const running of [worker, slowLane]) if (running.getState() === 'RUNNING') running.shutdown();
  };
  // One stopping on an error stops the other: a process without one of its lanes is not a worker.
  const runs = [worker.run(), slowLane.run()].map((run) =>
    run.catch((error: unknown) => (stopBoth(), Promise.reject(error))),
  );
  const done = Promise.all(runs).then(() => undefined);
  return {
    worker,
    done,
    stop: async () => {
      stopBoth();
      await done;
    },
  };
}
