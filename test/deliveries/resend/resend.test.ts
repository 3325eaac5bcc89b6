import { DeliveriesService } from '../../../src/deliveries/log/deliveries.service';
import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { loadActor } from '../../../src/identity/actor';
import { createLogger } from '../../../src/logger';
import { resendWorkflowId } from '../../../workflows/resend-delivery.workflow';
import { deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';

/** docs/deliveries.md#resend: the resend rules, each one. */
describe('resend (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver('new-secret').start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  /** A webhook on its own path with one finished delivery. */
  async function delivered(path: string, extra: Record<string, unknown> = {}) {
    const webhook = await fx.webhook(`${receiver.url}/${path}`, extra);
    await fx.createDeal(`Deal ${path}`);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await fx.finish(delivery!.id);
    return { webhook, delivery: delivery! };
  }
  const resend = (webhookId: string, deliveryId: string, key = fx.key) =>
    fx.api('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/resend`, undefined, key);
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body.error.issues[0].customCode,
  ];

  it('adds a new row with the same event id, sent with the webhook’s current URL and secret by a child workflow', async () => {
    const { webhook, delivery } = await delivered('original');
    const before = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery.id });
    await fx.api('PATCH', `/webhooks/${webhook.id}`, { url: `${receiver.url}/moved`, secret: 'new-secret' });

    const answer = await resend(webhook.id, delivery.id);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      trigger: 'resend',
      resendOf: delivery.id,
      eventId: delivery.eventId,
      url: `${receiver.url}/moved`,
    });
    const parent = fx.app.env.client.workflow.getHandle(resendWorkflowId(answer.body.id));
    expect(await parent.result()).toEqual({ status: 'delivered', attempts: 1 });
    const child = await fx.app.env.client.workflow.getHandle(deliveryWorkflowId(answer.body.id)).describe();
    expect(child.parentExecution?.workflowId).toBe(resendWorkflowId(answer.body.id));

    const [original, again] = [
      receiver.received.find((r) => r.path === '/original')!,
      receiver.received.find((r) => r.path === '/moved')!,
    ];
    expect(again.json.id).toBe(original.json.id);
    expect(again.headers['x-service-delivery-id']).toBe(answer.body.id);
    expect(again.signatureValid).toBe(true);
    const after = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery.id });
    expect(after).toEqual(before); // the original record is unchanged
  });

  it('answers a resend whose workflow could not start yet, and the sweep delivers it', async () => {
    const { webhook, delivery } = await delivered('late-start');
    const workspaceId = (await fx.api('GET', '/me')).body.workspace.id;
    const actor = (await loadActor(fx.app.dataSource.manager, workspaceId, fx.userId))!;
    const away = { startResend: () => Promise.reject(new Error('Temporal is away')) };
    const service = new DeliveriesService(fx.app.dataSource, away, () => null, createLogger('silent'));
    const resent = await service.resend(actor, webhook.id, delivery.id);
    expect(resent).toMatchObject({ status: 'pending', resendOf: delivery.id, eventId: delivery.eventId });
    expect(
      (await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: resent.id })).workflowStartedAt,
    ).toBeNull();

    await fx.app.workerServices!.dispatcher.sweep(0);
    expect(await fx.finish(resent.id)).toEqual({ status: 'delivered', attempts: 1 });
    expect(receiver.received.filter((r) => r.path === '/late-start')).toHaveLength(2);
  });

  it('refuses while the delivery is not Delivered or Failed', async () => {
    const { webhook, delivery } = await delivered('pending');
    await fx.app.dataSource.manager.update(Delivery, { id: delivery.id }, { status: 'sending' });
    expect(refusal(await resend(webhook.id, delivery.id))).toEqual([409, 'deliveryNotFinished']);
  });

  it('refuses when the webhook is disabled, no longer subscribed, or its record sources changed', async () => {
    const disabled = await delivered('disabled');
    await fx.api('PATCH', `/webhooks/${disabled.webhook.id}`, { enabled: false });
    expect(refusal(await resend(disabled.webhook.id, disabled.delivery.id))).toEqual([
      409,
      'webhookDisabled',
    ]);

    const unsubscribed = await delivered('unsubscribed');
    await fx.api('PATCH', `/webhooks/${unsubscribed.webhook.id}`, { events: ['record.updated'] });
    expect(refusal(await resend(unsubscribed.webhook.id, unsubscribed.delivery.id))).toEqual([
      409,
      'webhookNotSubscribed',
    ]);

    const moved = await delivered('sources');
    const revision = (await fx.api('POST', '/model/discover', {})).body.schemaRevision;
    const changed = await fx.api('PATCH', `/webhooks/${moved.webhook.id}`, {
      recordTrigger: { query: { typeId: fx.deal.id } },
      expectedSchemaRevision: revision,
    });
    expect(changed.status).toBe(200);
    expect(refusal(await resend(moved.webhook.id, moved.delivery.id))).toEqual([
      409,
      'webhookSourcesChanged',
    ]);
  });

  it('refuses when the webhook was deleted, and for retired events', async () => {
    const gone = await delivered('gone');
    await fx.api('DELETE', `/webhooks/${gone.webhook.id}`);
    expect(refusal(await resend(gone.webhook.id, gone.delivery.id))).toEqual([404, 'webhookNotFound']);

    const legacy = await delivered('legacy');
    const old = await fx.app.dataSource.manager.save(
      fx.app.dataSource.manager.create(Delivery, {
        ...legacy.delivery,
        id: undefined,
        event: 'deal.updated',
        trigger: 'resend',
        status: 'failed',
      }),
    );
    const listed = (await fx.api('GET', `/webhooks/${legacy.webhook.id}/deliveries`)).body.data;
    expect(listed.find((d: { id: string }) => d.id === old.id)).toMatchObject({
      event: 'deal.updated',
      legacy: true,
    });
    expect(refusal(await resend(legacy.webhook.id, old.id))).toEqual([409, 'deliveryEventRetired']);
  });

  it('needs Create on API & Webhooks, and for record events the record owner or an administrator', async () => {
    const { webhook, delivery } = await delivered('permissions');
    const viewer = await fx.keyWithRole('viewer@example.com', 'Viewer');
    expect(refusal(await resend(webhook.id, delivery.id, viewer))).toEqual([403, 'insufficientPermissions']);
    const member = await fx.keyWithRole('member@example.com', 'Member');
    expect(refusal(await resend(webhook.id, delivery.id, member))).toEqual([403, 'deliveryResendNotOwner']);
    expect((await resend(webhook.id, delivery.id)).status).toBe(201); // the Admin owns it
  });

  it('resends through MCP resend_delivery and lists through list_deliveries', async () => {
    const { webhook, delivery } = await delivered('mcp');
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    const listed = await mcp.call('manage_webhooks', { action: 'list_deliveries', id: webhook.id });
    expect(listed.structuredContent.data.map((d: { id: string }) => d.id)).toEqual([delivery.id]);
    const resent = await mcp.call('manage_webhooks', { action: 'resend_delivery', deliveryId: delivery.id });
    expect(resent.isError).toBeFalsy();
    expect(resent.structuredContent).toMatchObject({ resendOf: delivery.id, eventId: delivery.eventId });
    const missing = await mcp.call('manage_webhooks', {
      action: 'resend_delivery',
      deliveryId: '00000000-0000-4000-8000-000000000000',
    });
    expect(missing._meta!.failure).toMatchObject({
      kind: 'not_found',
      issues: [{ customCode: 'deliveryNotFound' }],
    });
    await mcp.client.close();
  });
});
