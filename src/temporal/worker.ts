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

/** Starts one worker polling the service's task queue with every workflow and activity. */
export async function startWorker(
  options: { address: string; namespace: string; taskQueue: string; logger: Logger },
  deps: ActivityDeps,
): Promise<RunningWorker> {
  installTemporalRuntime(options.logger);
  const connection = await NativeConnection.connect({ address: options.address });
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
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}
