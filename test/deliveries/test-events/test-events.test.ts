import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { recordEventEnvelopeSchema } from '../../../src/deliveries/engine/envelope-view';
import { StoredEvent } from '../../../src/messaging/stored-event.entity';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { Receiver } from '../../helpers/receiver';
import { connectMcp } from '../../helpers/mcp';
import { addMemberByInvitation, WebClient } from '../../helpers/web-client';

/** "Send test event" (docs/deliveries.md): a sample event through the same delivery path. */
describe('send a test event', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  const SECRET = 'test-event-secret';

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver(SECRET).start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const sendTest = (webhookId: string, body: unknown, key = fx.key) =>
    fx.api('POST', `/webhooks/${webhookId}/test`, body, key);
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body.error.kind,
    result.body.error.issues[0].customCode,
  ];
  const counts = async () => ({
    deliveries: await fx.app.dataSource.manager.count(Delivery),
    stored: await fx.app.dataSource.manager.count(StoredEvent),
  });
  const receivedOn = async (path: string) => {
    await eventually(async () => receiver.received.some((r) => r.path === path), `a POST on ${path}`);
    return receiver.received.find((r) => r.path === path)!;
  };

  it('sends a signed sample record event of the source type, marked data.test, logged as a test', async () => {
    const webhook = await fx.webhook(`${receiver.url}/record`, {
      secret: SECRET,
      recordTrigger: { query: { typeId: fx.deal.id } },
      expectedSchemaRevision: (await fx.api('POST', '/model/discover', {})).body.schemaRevision,
    });
    const answer = await sendTest(webhook.id, { event: 'record.updated' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ trigger: 'test', event: 'record.updated', status: 'pending' });
    await expect(fx.finish(answer.body.id)).resolves.toMatchObject({ status: 'delivered', attempts: 1 });

    const post = await receivedOn('/record');
    expect(post.signatureValid).toBe(true);
    // The body is what the OpenAPI `webhooks` section documents.
    expect(recordEventEnvelopeSchema.safeParse(post.json).error).toBeUndefined();
    expect(post.headers['x-service-delivery-id']).toBe(answer.body.id);
    expect(post.json).toMatchObject({
      event: 'record.updated',
      id: answer.body.eventId,
      data: {
        test: true,
        cause: { kind: 'test' },
        record: {
          ref: { typeId: fx.deal.id, recordId: answer.body.element.recordId },
          beforeVersion: 1,
          afterVersion: 2,
        },
      },
    });
    const name = post.json.data.record.fields.find(
      (f: { fieldId: string }) => f.fieldId === fx.field('Name'),
    );
    expect(name).toMatchObject({
      before: { state: 'value', value: 'Sample deal' },
      after: { state: 'value', value: 'Sample deal (renamed)' },
    });
    // No real record was made or read.
    expect((await fx.api('GET', `/records/deal/${answer.body.element.recordId}`)).status).toBe(404);

    const listed = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data;
    expect(listed).toEqual([
      expect.objectContaining({ id: answer.body.id, trigger: 'test', status: 'delivered' }),
    ]);
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${answer.body.id}`)).body;
    expect(details.payload).toMatchObject({ test: true });
  });

  it('sends a messaging sample to this webhook only, through its body template', async () => {
    const template = '{"what":"{{event}}","test":"{{data.test}}","entity":"{{data.entityId}}"}';
    const webhook = await fx.webhook(`${receiver.url}/messaging`, {
      events: ['messaging.message.received'],
      bodyTemplate: template,
    });
    const bystander = await fx.webhook(`${receiver.url}/bystander`, {
      events: ['messaging.message.received'],
    });
    const answer = await sendTest(webhook.id, { event: 'messaging.message.received' });
    expect(answer.status).toBe(201);
    await fx.finish(answer.body.id);
    const post = await receivedOn('/messaging');
    expect(post.json).toEqual({
      what: 'messaging.message.received',
      test: 'true',
      entity: answer.body.element.entityId,
    });
    // The sample is stored as already dispatched: the other subscriber never gets it.
    await fx.app.workerServices!.dispatcher.dispatchPending();
    expect(await fx.app.dataSource.manager.countBy(Delivery, { webhookId: bystander.id })).toBe(0);
    expect(receiver.received.filter((r) => r.path === '/bystander')).toEqual([]);
  });

  it('refuses, writing nothing: an event not subscribed, a disabled webhook, a retired or unknown event, no body', async () => {
    const webhook = await fx.webhook(`${receiver.url}/refusals`, { events: ['record.created'] });
    const before = await counts();
    expect(refusal(await sendTest(webhook.id, { event: 'record.deleted' }))).toEqual([
      409,
      'conflict',
      'webhookNotSubscribed',
    ]);
    expect((await sendTest(webhook.id, { event: 'deal.created' })).status).toBe(400);
    expect((await sendTest(webhook.id, { event: 'record.nothing' })).status).toBe(400);
    expect((await sendTest(webhook.id, {})).status).toBe(400);
    expect((await sendTest(webhook.id, { event: 'record.created', extra: 1 })).status).toBe(400);
    await fx.api('PATCH', `/webhooks/${webhook.id}`, { enabled: false });
    expect(refusal(await sendTest(webhook.id, { event: 'record.created' }))).toEqual([
      409,
      'conflict',
      'webhookDisabled',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for another workspace’s webhook and 403 to a role without Create', async () => {
    const webhook = await fx.webhook(`${receiver.url}/guarded`, { events: ['record.created'] });
    const other = await WebClient.signUp(fx.app.baseUrl, { email: 'test-events-other@example.com' });
    const otherKey = (await other.client.ok('POST', '/app/api/api-keys', { name: 'other' })).value as string;
    const before = await counts();
    expect(refusal(await sendTest(webhook.id, { event: 'record.created' }, otherKey))).toEqual([
      404,
      'not_found',
      'webhookNotFound',
    ]);

    const roles = (await fx.admin.ok('GET', '/app/api/roles')).data;
    const byName = (name: string) => roles.find((r: { name: string }) => r.name === name).id;
    const added = await addMemberByInvitation(fx.app.baseUrl, fx.admin, {
      email: 'test-events-viewer@example.com',
      roleId: byName('Member'),
    });
    const viewerKey = (await added.client.ok('POST', '/app/api/api-keys', { name: 'k' })).value as string;
    await fx.admin.ok('PATCH', `/app/api/members/${added.userId}`, { roleId: byName('Viewer') });
    expect(refusal(await sendTest(webhook.id, { event: 'record.created' }, viewerKey))).toEqual([
      403,
      'authorization',
      'insufficientPermissions',
    ]);
    expect(await counts()).toEqual(before);
  });

  it('is the send_test_event action of manage_webhooks over MCP, with the same refusals', async () => {
    const webhook = await fx.webhook(`${receiver.url}/mcp`, { events: ['messaging.chat.updated'] });
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    try {
      const sent = await mcp.call('manage_webhooks', {
        action: 'send_test_event',
        id: webhook.id,
        event: 'messaging.chat.updated',
      });
      expect(sent.isError).toBeFalsy();
      expect(sent.structuredContent).toMatchObject({ trigger: 'test', event: 'messaging.chat.updated' });
      await fx.finish(sent.structuredContent.id);
      expect((await receivedOn('/mcp')).json).toMatchObject({ data: { test: true } });

      const before = await counts();
      const refused = await mcp.call('manage_webhooks', {
        action: 'send_test_event',
        id: webhook.id,
        event: 'record.created',
      });
      expect(refused.isError).toBe(true);
      expect(refused._meta!.failure.issues[0].customCode).toBe('webhookNotSubscribed');
      expect(await counts()).toEqual(before);
    } finally {
      await mcp.client.close();
    }
  });
});
