import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { tracingClientInterceptors } from './tracing';

/** A gRPC connection to Temporal: the client's own, or the worker's native one shared with it. */
export type TemporalConnection = Connection | NativeConnection;

export interface TemporalHandle {
  connection: TemporalConnection;
  client: Client;
  namespace: string;
  taskQueue: string;
  /**
   * Whether workflows started here may ask for eager start: the client is built on the worker's
   * NativeConnection and a worker of the task queue runs in this process, so the server hands the
   * first workflow task straight back in the start call's answer (no dispatch through matching).
   */
  eagerStart: boolean;
}

/**
 * Connects the API's client. A process that also runs a worker shares the worker's
 * NativeConnection (`sharedWithWorker`), which is what makes eager workflow start possible; the
 * SDK refuses `requestEagerStart` on any other connection. The Temporal runtime must be installed
 * before (installTemporalRuntime), as for any worker connection.
 */
export async function connectTemporal(
  address: string,
  namespace: string,
  taskQueue: string,
  options: { sharedWithWorker?: boolean } = {},
): Promise<TemporalHandle> {
  if (options.sharedWithWorker) {
    const connection = await NativeConnection.connect({ address });
    return {
      connection,
      client: new Client({ connection, namespace, interceptors: tracingClientInterceptors() }),
      namespace,
      taskQueue,
      eagerStart: true,
    };
  }
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return {
    connection,
    client: new Client({ connection, namespace, interceptors: tracingClientInterceptors() }),
    namespace,
    taskQueue,
    eagerStart: false,
  };
}

/** Health probe: the namespace answers within two seconds. */
export async function checkTemporal(handle: TemporalHandle): Promise<void> {
  await handle.connection.withDeadline(Date.now() + 2_000, () =>
    handle.connection.workflowService.describeNamespace({ namespace: handle.namespace }),
  );
}
