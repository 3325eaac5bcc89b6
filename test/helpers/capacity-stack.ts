import { deliveryFixture, type DeliveryFixture } from './delivery-fixture';
import { startTestDevServer } from './dev-server';
import { Receiver } from './receiver';

/** The delivery capacity tests' stack: the app and its worker on the real Temporal dev server, a receiver. */
export interface CapacityStack {
  a: DeliveryFixture;
  receiver: Receiver;
  close: () => Promise<void>;
}

/**
 * The real Temporal dev server (task queue fairness on, as the embedded stack runs it), the app with
 * a worker and these settings, and a receiver on loopback.
 */
export async function startCapacityStack(overrides: Record<string, string>): Promise<CapacityStack> {
  const server = await startTestDevServer();
  let a: DeliveryFixture | undefined;
  try {
    a = await deliveryFixture(overrides, { temporalAddress: server.address });
    const receiver = await new Receiver().start();
    const fixture = a;
    return {
      a: fixture,
      receiver,
      close: async () => {
        await receiver.stop();
        await fixture.close();
        await server.stop();
      },
    };
  } catch (error) {
    await a?.close();
    await server.stop();
    throw error;
  }
}
