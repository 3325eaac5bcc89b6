import type { RunningDevServer } from '../../src/embedded/temporal-dev-server';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { startTestDevServer } from '../helpers/dev-server';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { Receiver } from '../helpers/receiver';

/** What a process's `webhook_workflow_starts_total` counted, by whether the start was eager. */
async function startsOf(fx: DeliveryFixture, process: 'api' | 'worker') {
  const registry = process === 'api' ? fx.app.metrics : fx.app.workerMetrics!;
  const { values } = await registry.getSingleMetric('webhook_workflow_starts_total')!.get();
  const count = (eager: string) => values.find((value) => value.labels.eager === eager)?.value ?? 0;
  return { eager: count('true'), dispatched: count('false') };
}

/**
 * The production topology's split (`npm run api`, `npm run worker`) on the real dev server: the API
 * process commits a write and its deliveries and leaves their starts to the worker process, which
 * claims them when woken and starts them on its worker's connection, so the server hands each first
 * workflow task straight back (eager) instead of dispatching it through matching.
 */
describe('eager start in the production topology', () => {
  let server: RunningDevServer;
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startTestDevServer();
    fx = await deliveryFixture({}, { temporalAddress: server.address, topology: true });
    receiver = await new Receiver().start();
  }, 180_000);

  afterAll(async () => {
    await receiver?.stop();
    await fx?.close();
    await server?.stop();
  });

  it("starts a write's deliveries in the worker process, eagerly, each once", async () => {
    const webhook = await fx.webhook(`${receiver.url}/eager`);
    for (const name of ['Acme', 'Globex', 'Initech']) await fx.createDeal(name);

    const deliveries = await fx.deliveriesOf(webhook.id, 3);
    await eventually(async () => {
      const rows = await fx.app.dataSource.manager.findBy(Delivery, { webhookId: webhook.id });
      return rows.length === 3 && rows.every((row) => row.status === 'delivered');
    }, 'the three deliveries are delivered');
    expect(receiver.received.filter((request) => request.path === '/eager')).toHaveLength(3);
    // Every start was the worker process's, and the server handed each first task over eagerly.
    expect(await startsOf(fx, 'api')).toEqual({ eager: 0, dispatched: 0 });
    expect(await startsOf(fx, 'worker')).toEqual({ eager: 3, dispatched: 0 });
    const rows = await fx.app.dataSource.manager.findBy(
      Delivery,
      deliveries.map((delivery) => ({ id: delivery.id })),
    );
    for (const row of rows) expect(row.workflowStartedAt).not.toBeNull();
    // Untraced, the write keeps no trace context with its deliveries (docs/observability.md#where-a-trace-stops).
    for (const row of rows) expect(row.traceContext).toBeNull();
  });
});
