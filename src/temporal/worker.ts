import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';
import type { Logger } from '../logger';
import { installTemporalRuntime } from './runtime';
import { workflowCode } from './workflow-bundle';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has stopped. */
  done: Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Starts one worker polling the service's task queue with every workflow and activity. Given
 * `shared`, the API client's NativeConnection (eager start needs both on one connection), the
 * worker uses it and leaves closing it to its owner.
 */
export async function startWorker(
  options: { address: string; namespace: string; taskQueue: string; logger: Logger },
  deps: ActivityDeps,
  shared?: NativeConnection,
): Promise<RunningWorker> {
  installTemporalRuntime(options.logger);
  const connection = shared ?? (await NativeConnection.connect({ address: options.address }));
  // The bundle `npm run build` made, so a restarted worker polls within a second or two.
  const code = workflowCode();
  if (code.bundledAtStartBecause) {
    options.logger.info({ reason: code.bundledAtStartBecause }, 'bundling the workflow code at start');
  }
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    ...code.option,
    activities: createActivities(deps),
  });
  const done = shared ? worker.run() : worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
