import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { Receiver } from '../../helpers/receiver';

/**
 * The outbound guard (docs/deliveries.md, "Where deliveries may go"), from the side of someone who
 * can save a webhook URL: cloud metadata, the service's own loopback ports and a hostname that
 * resolves to loopback are refused on the address actually connected to, as 422 failures, unsent
 * and not retried.
 */
async function deliverTo(fx: DeliveryFixture, url: string) {
  const webhook = await fx.webhook(url, { events: ['record.created'] });
  await fx.createDeal(`Deal for ${url}`);
  const [delivery] = await fx.deliveriesOf(webhook.id);
  const result = await fx.finish(delivery!.id);
  const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${delivery!.id}`)).body;
  return { result, details };
}

describe('outbound guard with nothing allowed (OUTBOUND_ALLOWED_CIDRS=none)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture({ OUTBOUND_ALLOWED_CIDRS: 'none' });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  it('refuses cloud metadata (link-local) with 422, unsent and not retried', async () => {
    const { result, details } = await deliverTo(fx, 'http://169.254.169.254/latest/meta-data/');
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(details).toMatchObject({
      status: 'failed',
      statusCode: 422,
      responseMessage:
        'Not sent: 169.254.169.254 is a link-local address; outbound requests to it are refused.',
    });
    expect(details.attemptHistory).toHaveLength(1);
  });

  it('refuses the IPv4-mapped IPv6 form of cloud metadata the same way', async () => {
    const { result, details } = await deliverTo(fx, 'http://[::ffff:169.254.169.254]/latest/');
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(details).toMatchObject({ statusCode: 422 });
    expect(details.responseMessage).toMatch(/\(169\.254\.169\.254\) is a link-local address/);
  });

  it('refuses a loopback receiver without sending it anything, and names no port', async () => {
    const { result, details } = await deliverTo(fx, `${receiver.url}/internal`);
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(details).toMatchObject({
      statusCode: 422,
      responseMessage:
        'Not sent: 127.0.0.1 is a loopback address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it.',
    });
    // The attempt history carries the rule, not a socket error mapping the port.
    expect(details.attemptHistory.map((a: { responseMessage: string }) => a.responseMessage)).toEqual([
      details.responseMessage,
    ]);
    expect(receiver.received).toHaveLength(0);
  });

  it('checks the resolved address: localhost, resolving to loopback, is refused', async () => {
    const port = new URL(receiver.url).port;
    const { result, details } = await deliverTo(fx, `http://localhost:${port}/by-name`);
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(details.statusCode).toBe(422);
    expect(details.responseMessage).toMatch(
      /^Not sent: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address; outbound requests to it are refused unless OUTBOUND_ALLOWED_CIDRS allows it\.$/,
    );
    expect(receiver.received).toHaveLength(0);
  });

  it('still saves such a webhook (saving stays as the spec says)', async () => {
    const webhook = await fx.webhook('http://10.0.0.7/hook');
    expect(webhook.url).toBe('http://10.0.0.7/hook');
  });
});

describe('outbound guard with the embedded default (loopback allowed)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  it('delivers to a loopback receiver, by address and by name', async () => {
    expect((await deliverTo(fx, `${receiver.url}/local`)).result).toEqual({
      status: 'delivered',
      attempts: 1,
    });
    const port = new URL(receiver.url).port;
    expect((await deliverTo(fx, `http://localhost:${port}/by-name`)).result).toEqual({
      status: 'delivered',
      attempts: 1,
    });
    expect(receiver.received.map((r) => r.path)).toEqual(expect.arrayContaining(['/local', '/by-name']));
  });

  it('still refuses cloud metadata', async () => {
    const { result, details } = await deliverTo(fx, 'http://169.254.169.254/latest/meta-data/');
    expect(result).toEqual({ status: 'failed', attempts: 1 });
    expect(details.statusCode).toBe(422);
  });
});
