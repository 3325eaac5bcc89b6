import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { WebClient } from '../../helpers/web-client';

/**
 * Issue 10, hole 10: every deliveries route, tried by workspace B against workspace A's webhook and
 * delivery ids (REST with B's key, the web app's /app/api with B's session, MCP with B's key).
 * A webhook id that is unknown or A's answers webhookNotFound; only a delivery id given (MCP
 * resend_delivery, or B's own webhook with A's delivery) answers deliveryNotFound. Nothing changes.
 */
describe('deliveries across workspaces', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let bKey: string;
  let bWeb: WebClient;
  let a: { webhookId: string; deliveryId: string };
  let bWebhookId: string;
  const unknownId = '00000000-0000-4000-8000-000000000000';

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    const webhook = await fx.webhook(`${receiver.url}/a`);
    await fx.createDeal('Deal of A');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await fx.finish(delivery!.id);
    a = { webhookId: webhook.id, deliveryId: delivery!.id };

    const b = await WebClient.signUp(fx.app.baseUrl, { email: 'other-workspace@example.com' });
    bWeb = b.client;
    bKey = (await bWeb.ok('POST', '/app/api/api-keys', { name: 'b' })).value;
    const own = await fx.api(
      'POST',
      '/webhooks',
      { url: 'https://b.example.com/in', events: ['record.created'] },
      bKey,
    );
    bWebhookId = own.body.id;
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const deliveryRows = () => fx.app.dataSource.manager.count(Delivery);
  const code = (result: { status: number; body: any }) => [
    result.status,
    result.body?.error?.kind,
    result.body?.error?.issues?.[0]?.customCode,
  ];
  const notFound = (customCode: string) => [404, 'not_found', customCode];

  /** Each deliveries route with a webhook id and a delivery id; [method, path, expected code]. */
  const routes = (): [string, string, string][] => [
    ['GET', `/webhooks/${a.webhookId}/deliveries`, 'webhookNotFound'],
    ['GET', `/webhooks/${a.webhookId}/deliveries/${a.deliveryId}`, 'webhookNotFound'],
    ['POST', `/webhooks/${a.webhookId}/deliveries/${a.deliveryId}/resend`, 'webhookNotFound'],
    ['POST', `/webhooks/${a.webhookId}/deliveries/${a.deliveryId}/retry-now`, 'webhookNotFound'],
    ['GET', `/webhooks/${unknownId}/deliveries`, 'webhookNotFound'],
    ['GET', `/webhooks/${unknownId}/deliveries/${a.deliveryId}`, 'webhookNotFound'],
    ['POST', `/webhooks/${unknownId}/deliveries/${a.deliveryId}/resend`, 'webhookNotFound'],
    ['GET', `/webhooks/${unknownId}/deliveries/${unknownId}`, 'webhookNotFound'],
    ['POST', `/webhooks/${unknownId}/deliveries/${unknownId}/resend`, 'webhookNotFound'],
    // B's own webhook with A's delivery: only the delivery is unknown.
    ['GET', `/webhooks/${bWebhookId}/deliveries/${a.deliveryId}`, 'deliveryNotFound'],
    ['POST', `/webhooks/${bWebhookId}/deliveries/${a.deliveryId}/resend`, 'deliveryNotFound'],
    ['POST', `/webhooks/${bWebhookId}/deliveries/${a.deliveryId}/retry-now`, 'deliveryNotFound'],
  ];

  it('REST with a key of workspace B', async () => {
    const before = await deliveryRows();
    for (const [method, path, expected] of routes()) {
      expect([method, path, code(await fx.api(method, path, undefined, bKey))]).toEqual([
        method,
        path,
        notFound(expected),
      ]);
    }
    const all = await fx.api('GET', '/webhooks/deliveries', undefined, bKey);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([]);
    expect(await deliveryRows()).toBe(before);
  });

  it('the web app’s /app/api with a session of workspace B', async () => {
    const before = await deliveryRows();
    for (const [method, path, expected] of routes()) {
      expect([method, path, code(await bWeb.request(method, `/app/api${path}`))]).toEqual([
        method,
        path,
        notFound(expected),
      ]);
    }
    expect((await bWeb.ok('GET', '/app/api/webhooks/deliveries')).data).toEqual([]);
    expect(await deliveryRows()).toBe(before);
  });

  it('MCP list_deliveries and resend_delivery with a key of workspace B', async () => {
    const before = await deliveryRows();
    const mcp = await connectMcp(fx.app.baseUrl, bKey);
    const listed = await mcp.call('manage_webhooks', { action: 'list_deliveries', id: a.webhookId });
    expect(listed._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [{ customCode: 'webhookNotFound' }],
    });
    const everything = await mcp.call('manage_webhooks', { action: 'list_deliveries' });
    expect(everything.structuredContent.data).toEqual([]);
    const resent = await mcp.call('manage_webhooks', { action: 'resend_delivery', deliveryId: a.deliveryId });
    expect(resent._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [{ customCode: 'deliveryNotFound' }],
    });
    await mcp.client.close();
    expect(await deliveryRows()).toBe(before);
  });

  it('the owner still reads and resends the same ids', async () => {
    const details = await fx.api('GET', `/webhooks/${a.webhookId}/deliveries/${a.deliveryId}`);
    expect(details.status).toBe(200);
    const resent = await fx.api('POST', `/webhooks/${a.webhookId}/deliveries/${a.deliveryId}/resend`);
    expect(resent.status).toBe(201);
    expect(resent.body.resendOf).toBe(a.deliveryId);
  });
});
