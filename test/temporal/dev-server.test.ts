import { randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowExecutionInfo } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { RunningDevServer } from '../../src/embedded/temporal-dev-server';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import {
  DeliveryIdKey,
  DeliveryStatusKey,
  deliverySearchAttributes,
} from '../../src/shared/temporal/search-attributes';
import { startTestDevServer } from '../helpers/dev-server';

/**
 * The embedded dev server runs with its search-attribute cache on and a slower visibility queue
 * (DEV_SERVER_DYNAMIC_CONFIG). What an operator relies on must still hold: a delivery can carry
 * the search attributes from the server's first second, and every delivery, short or long, can be
 * found in the Web UI's list by its search attributes.
 */
describe('the embedded Temporal dev server', () => {
  let server: RunningDevServer;
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    server = await startTestDevServer();
    connection = await Connection.connect({ address: server.address });
    client = new Client({ connection, namespace: 'default' });
  }, 120_000);

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
  });

  /** A workflow with a delivery's search attributes; no worker serves its queue, so it stays open. */
  async function startDeliveryShaped(status: string) {
    const deliveryId = randomUUID();
    const handle = await client.workflow.start('deliveryWorkflow', {
      taskQueue: `no-worker-${randomUUID()}`,
      workflowId: `delivery-${deliveryId}`,
      args: [],
      typedSearchAttributes: new TypedSearchAttributes([
        ...deliverySearchAttributes({
          workspaceId: randomUUID(),
          webhookId: randomUUID(),
          event: 'record.created',
          eventId: randomUUID(),
          deliveryId,
        }),
        { key: DeliveryStatusKey, value: status },
      ]),
    });
    return { deliveryId, handle };
  }

  async function findByDeliveryId(deliveryId: string, until: (found: WorkflowExecutionInfo) => boolean) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      for await (const found of client.workflow.list({ query: `DeliveryId = "${deliveryId}"` })) {
        if (until(found)) return found;
      }
      if (Date.now() > deadline) throw new Error(`delivery ${deliveryId} not listed in time`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('has every search attribute a delivery sets from the start (none to add at run time)', async () => {
    // The first call after the server came up: with the cache on, an attribute added now would be
    // refused by workflow starts for up to a minute.
    const { deliveryId } = await startDeliveryShaped('pending');
    expect(await ensureSearchAttributes(connection, 'default')).toEqual([]);
    const open = await findByDeliveryId(deliveryId, () => true);
    expect(open.searchAttributes?.[DeliveryIdKey.name]).toEqual([deliveryId]);
  });

  it('lists a delivery that is still open, with its status', async () => {
    const { deliveryId } = await startDeliveryShaped('retrying');
    const found = await findByDeliveryId(deliveryId, () => true);
    expect(found.status.name).toBe('RUNNING');
    expect(found.typedSearchAttributes.get(DeliveryStatusKey)).toBe('retrying');
  });

  it('lists a delivery that closed within milliseconds of its start', async () => {
    const { deliveryId, handle } = await startDeliveryShaped('delivered');
    await handle.terminate('closed at once, like a delivery whose first attempt succeeds');
    const found = await findByDeliveryId(deliveryId, (execution) => execution.status.name !== 'RUNNING');
    expect(found.status.name).toBe('TERMINATED');
    expect(found.typedSearchAttributes.get(DeliveryStatusKey)).toBe('delivered');
  });
});
