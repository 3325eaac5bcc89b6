import { Client, Connection } from '@temporalio/client';

export interface TemporalHandle {
  connection: Connection;
  client: Client;
  namespace: string;
  taskQueue: string;
}

export async function connectTemporal(
  address: string,
  namespace: string,
  taskQueue: string,
): Promise<TemporalHandle> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return { connection, client: new Client({ connection, namespace }), namespace, taskQueue };
}

/** Health probe: the namespace answers within two seconds. */
export async function checkTemporal(handle: TemporalHandle): Promise<void> {
  await handle.connection.withDeadline(Date.now() + 2_000, () =>
    handle.connection.workflowService.describeNamespace({ namespace: handle.namespace }),
  );
}
