import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { LISTEN_RESUME_GRACE_MS } from '../../src/shared/limits';
import { WebhooksRepository } from '../../src/webhooks/webhooks.repository';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { firstDeliveryForwarded, ListenCommand, openListenStream } from '../helpers/listen-command';
import { Receiver } from '../helpers/receiver';
import { startSecondApiProcess } from '../helpers/test-app';
import { sharedDevServerAddress } from '../helpers/test-run';

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
    await command.line(/^Session \S+: forwarding 1 event\(s\) to /);
    const { sessionId, secret } = await command.session();
    // Two processes' services: the worker's holds no stream of its own.
    expect(fx.app.workerMetrics).toBeDefined();

    const deal = await fx.createDeal('Across');
    const logged = await firstDeliveryForwarded(fx, command, receiver, {
      sessionId,
      secret,
      path: '/apart',
      recordId: deal.id,
    });
    expect(logged.attempts).toBe(1);
    // Answered on its first attempt, and its row deleted once answered.
    expect(await sendsInFlight()).toBe(0);
  });

  it('takes the answer on another API process than the one holding the stream', async () => {
    second = await startSecondApiProcess(fx.app);
    const stream = await openListenStream(second.baseUrl, fx.key, '?events=record.created');
    expect(stream.response.status).toBe(200);
    const { events } = stream;
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
    stream.close();

    // The sweep of ended sessions counts what it removed: this test's two sessions, once past their
    // time, and then none.
    const later = new Date(Date.now() + 3 * LISTEN_RESUME_GRACE_MS);
    const webhooks = new WebhooksRepository(fx.app.dataSource.manager);
    expect(await webhooks.removeEndedListeners(later)).toBe(2);
    expect(await webhooks.removeEndedListeners(later)).toBe(0);
  });
});
