import { deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { Receiver } from '../../helpers/receiver';

/**
 * docs/deliveries.md#what-a-receiver-gets, on the time-skipping server with real receivers on
 * loopback: the full 10-attempt schedule runs in seconds.
 */
describe('delivery retries (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  const SECRET = 'whsec-retries';

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver(SECRET).start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  /** A webhook on its own receiver path, one record event, its single delivery's end. */
  async function deliverOnce(
    path: string,
    ...replies: { status: number; statusText?: string; delayMs?: number }[]
  ) {
    receiver.replies(`/${path}`, ...replies);
    const before = receiver.received.length;
    const webhook = await fx.webhook(`${receiver.url}/${path}`, { secret: SECRET });
    await fx.createDeal(`Deal for ${path}`);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    const result = await fx.finish(delivery!.id);
    const rows = await fx.deliveriesOf(webhook.id);
    const requests = receiver.received.slice(before).filter((r) => r.path === `/${path}`);
    return { webhook, delivery: delivery!, result, rows, requests };
  }

  it('tries a receiver that always answers 500 exactly 10 times, at 10 s doubling to the 1 h cap, leaving one Failed row', async () => {
    const { delivery, result, rows, requests } = await deliverOnce('always-500', {
      status: 500,
      statusText: 'Kaput',
    });
    expect(result).toEqual({ status: 'failed', attempts: 10 });
    expect(requests).toHaveLength(10);
    expect(rows).toHaveLength(1);
    const [row] = (await fx.api('GET', `/webhooks/${delivery.webhookId}/deliveries`)).body.data;
    expect(row).toMatchObject({
      status: 'failed',
      statusCode: 500,
      responseMessage: 'Kaput',
      attempts: 10,
      nextAttemptAt: null,
    });

    const history = await fx.app.env.client.workflow
      .getHandle(deliveryWorkflowId(delivery.id))
      .fetchHistory();
    const pauses = (history.events ?? [])
      .filter((event) => event.timerStartedEventAttributes)
      .map((event) => Number(event.timerStartedEventAttributes!.startToFireTimeout!.seconds));
    expect(pauses).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560]);

    // Every retry carries the same event id, delivery id and a valid signature over the raw body.
    expect(new Set(requests.map((r) => r.json.id)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
    expect(requests.every((r) => r.signatureValid)).toBe(true);
  });

  it('delivers on the second attempt after a 503, in the same row', async () => {
    const { result, rows, requests } = await deliverOnce('503-then-200', { status: 503 }, { status: 200 });
    expect(result).toEqual({ status: 'delivered', attempts: 2 });
    expect(requests).toHaveLength(2);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'delivered', statusCode: 200, attempts: 2 });
    expect(requests[0]!.rawBody.equals(requests[1]!.rawBody)).toBe(true);
  });

  it.each([400, 401, 403, 404, 422])('tries once on %i and leaves it Failed', async (status) => {
    const { result, requests, rows } = await deliverOnce(`final-${status}`, { status });
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(requests).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'failed', statusCode: status });
  });

  it.each([408, 425, 429])('retries on %i', async (status) => {
    const { result, requests } = await deliverOnce(`retry-${status}`, { status }, { status: 204 });
    expect(result).toEqual({ status: 'delivered', attempts: 2 });
    expect(requests).toHaveLength(2);
  });

  it('counts a receiver slower than 5 s as a timeout without a status code, and retries it', async () => {
    const { webhook, result } = await deliverOnce('slow', { status: 200, delayMs: 6_000 }, { status: 200 });
    expect(result).toEqual({ status: 'delivered', attempts: 2 });
    const [row] = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data;
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${row.id}`)).body;
    expect(details.attemptHistory[0]).toMatchObject({
      attempt: 1,
      statusCode: null,
      outcome: 'retry',
      responseMessage: expect.stringMatching(/timed out/i),
    });
    expect(details.attemptHistory[0].durationMs).toBeGreaterThanOrEqual(4_900);
    expect(details.attemptHistory[1]).toMatchObject({ attempt: 2, statusCode: 200, outcome: 'delivered' });
  }, 60_000);
});
