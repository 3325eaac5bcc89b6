import { deliveryFixture, type DeliveryFixture } from './delivery-fixture';
import { startTestDevServer } from './dev-server';
import { Receiver } from './receiver';
import { WebClient } from './web-client';

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

/** Workspace B of a capacity test: another sign-up on the same service, its key and its deal write. */
export interface SecondTenant {
  key: string;
  /** Writes a deal in B (its record.created reaches B's webhook); the write's answer. */
  createDeal: (name: string) => Promise<{ status: number; body: any }>;
}

/**
 * Signs up workspace B beside the stack's A, with an API key and a webhook on `path` of the stack's
 * receiver (which answers at once unless told otherwise) subscribed to record.created.
 */
export async function secondTenant(stack: CapacityStack, email: string, path = '/b'): Promise<SecondTenant> {
  const { a, receiver } = stack;
  const b = await WebClient.signUp(a.app.baseUrl, { email });
  const key = (await b.client.ok('POST', '/app/api/api-keys', { name: 'b' })).value as string;
  const fields = (await a.api('POST', '/model/read', { type: 'deal' }, key)).body.type.fields as {
    id: string;
    name: string;
  }[];
  const nameField = fields.find((field) => field.name === 'Name')!.id;
  const hook = await a.api(
    'POST',
    '/webhooks',
    { url: `${receiver.url}${path}`, events: ['record.created'] },
    key,
  );
  if (hook.status !== 201) throw new Error(`B's webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
  return {
    key,
    createDeal: (name) => a.api('POST', '/records/deal', { values: { [nameField]: name } }, key),
  };
}
