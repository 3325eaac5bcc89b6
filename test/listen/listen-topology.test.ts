import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { LISTEN_RESUME_GRACE_MS } from '../../src/shared/limits';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { ListenCommand, verifies } from '../helpers/listen-command';
import { Receiver } from '../helpers/receiver';
import { startSecondApiProcess } from '../helpers/test-app';
import { sharedDevServerAddress } from '../helpers/test-run';

/** The events of a `text/event-stream` response, read as they come. */
async function* streamEvents(response: Response): AsyncGenerator<{ name: string; data: any }> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const lines = pending.slice(0, end).split('\n');
      pending = pending.slice(end + 2);
      const field = (name: string) =>
        lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      yield { name: field('event') ?? '', data: JSON.parse(field('data') ?? 'null') };
    }
  }
}

/**
 * `listen` in the production topology (docs/listen.md#across-processes): the API and the worker in
 * processes of their own on one database (`npm run api`, `npm run worker`), so the worker that runs
 * a session's attempt holds no stream. Its send reaches the API process holding the stream through
 * PostgreSQL, and the answer, posted to any API process, comes back to the waiting worker the same way.
 */
describe('listen with the API and the worker in processes apart', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let command: ListenCommand | undefined;
  let second: Awaited<ReturnType<typeof startSecondApiProcess>> | undefined;
  const deliveredOf = async (sessionId: string) =>
    fx.app.dataSource.manager.findBy(Delivery, { webhookId: sessionId, status: 'delivered' });
  const sendsInFlight = async () =>
    Number((await fx.app.dataSource.query(`SELECT count(*) AS n FROM listener_sends`))[0].n);

  beforeAll(async () => {
    fx = await deliveryFixture({}, { temporalAddress: sharedDevServerAddress(), topology: true });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await command?.stop();
    await second?.close();
    await receiver?.stop();
    await fx?.close();
  });

  it('forwards a write’s delivery from the worker process down the API process’s stream, and logs the answer', async () => {
    command = new ListenCommand([
      '--url',
      fx.app.baseUrl,
      '--forward-to',
      `${receiver.url}/apart`,
      '--api-key',
      fx.key,
      '--events',
      'record.created',
    ]);
    const [, sessionId] = await command.line(/^Session (\S+): forwarding 1 event\(s\) to /);
    const [, secret] = await command.line(/^Signing secret of this session: (whsec_\S+)$/);
    // Two processes' services: the worker's holds no stream of its own.
    expect(fx.app.workerMetrics).toBeDefined();

    const deal = await fx.createDeal('Across');
    await eventually(() => receiver.received.length === 1, 'the receiver got the delivery');
    const [received] = receiver.received;
    expect(received!.path).toBe('/apart');
    expect(received!.json).toMatchObject({
      event: 'record.created',
      data: { record: { ref: { recordId: deal.id } } },
    });
    expect(verifies(secret!, received!)).toBe(true);
    await command.line(/record\.created {2}\S+ {2}→ 200 OK \(\d+ ms\)$/);
    await eventually(
      async () => (await deliveredOf(sessionId!)).length === 1,
      'the delivery is logged Delivered',
    );
    const [logged] = await fx.deliveriesOf(sessionId!);
    expect(logged).toMatchObject({ url: `listen://${sessionId}`, statusCode: 200, attempts: 1 });
    // Answered on its first attempt, and its row deleted once answered.
    expect(await sendsInFlight()).toBe(0);
  });

  it('takes the answer on another API process than the one holding the stream', async () => {
    second = await startSecondApiProcess(fx.app);
    const stream = await fetch(`${second.baseUrl}/api/v1/listen?events=record.created`, {
      headers: { 'x-api-key': fx.key, accept: 'text/event-stream' },
    });
    expect(stream.status).toBe(200);
    const events = streamEvents(stream);
    const opened = (await events.next()).value!;
    expect(opened.name).toBe('session');
    const { sessionId } = opened.data as { sessionId: string };

    await fx.createDeal('Answered elsewhere');
    let delivery: { deliveryId: string; headers: Record<string, string>; body: string } | undefined;
    for await (const event of events) {
      if (event.name === 'delivery') {
        delivery = event.data;
        break;
      }
    }
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'record.created' });
    const answered = await fetch(`${fx.app.baseUrl}/api/v1/listen/${sessionId}/answers`, {
      method: 'POST',
      headers: { 'x-api-key': fx.key, 'content-type': 'application/json' },
      body: JSON.stringify({ deliveryId: delivery!.deliveryId, statusCode: 202, statusText: 'Accepted' }),
    });
    expect(answered.status).toBe(204);
    await eventually(async () => (await deliveredOf(sessionId)).length === 1, 'the answer is logged');
    const [logged] = await fx.deliveriesOf(sessionId);
    expect(logged).toMatchObject({ statusCode: 202, attempts: 1 });
    expect(await sendsInFlight()).toBe(0);
    await stream.body?.cancel();

    // The sweep of ended sessions counts what it removed: this test's two sessions, once past their
    // time, and then none.
    const later = new Date(Date.now() + 3 * LISTEN_RESUME_GRACE_MS);
    const webhooks = new WebhooksRepository(fx.app.dataSource.manager);
    expect(await webhooks.removeEndedListeners(later)).toBe(2);
    expect(await webhooks.removeEndedListeners(later)).toBe(0);
  });
});
