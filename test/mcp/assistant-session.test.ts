import { DELIVERY_MAX_ATTEMPTS } from '../../src/shared/limits';
import { resendWorkflowId } from '../../workflows/resend-delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { connectMcp } from '../helpers/mcp';
import { Receiver } from '../helpers/receiver';

/**
 * Issue 13, "Done when": an assistant-style session through the official SDK client that starts
 * from names only (an event name, a record type name, field names), creates a webhook, finds why a
 * delivery failed, and resends it once the receiver is fixed. Only the waiting for the delivery
 * workflows goes around MCP (time skipping advances while a client awaits a workflow result).
 */
describe('an assistant over MCP, from names only', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let mcp: Awaited<ReturnType<typeof connectMcp>>;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    mcp = await connectMcp(fx.app.baseUrl, fx.key);
  });
  afterAll(async () => {
    await mcp?.client.close();
    await receiver?.stop();
    await fx?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.call(name, args);
    if (result.isError) throw new Error(`${name} refused: ${result.content[0]!.text}`);
    return result;
  };

  it('creates a webhook, finds why its delivery failed, fixes the receiver and resends it', async () => {
    // 1. What can it do? (The SDK client also validates every answer below against its outputSchema.)
    const { tools } = await mcp.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['get_record_model', 'manage_webhooks']));
    const events = (
      tools.find((tool) => tool.name === 'manage_webhooks')!.inputSchema.properties!.events as any
    ).items.enum;
    expect(events).toContain('record.updated');

    // 2. The record type by its name, for the ids and revision a record subscription needs.
    const model = (await call('get_record_model', { type: 'Contact' })).structuredContent;
    const [contact] = model.types;
    expect(contact).toMatchObject({ name: 'Contacts', builtin: 'contact' });

    // 3. A webhook on a receiver that answers 500 for now.
    receiver.replies('/crm', { status: 500, statusText: 'Internal Server Error' });
    const webhook = (
      await call('manage_webhooks', {
        action: 'create',
        url: `${receiver.url}/crm`,
        events: ['record.updated'],
        recordTrigger: { query: { typeId: contact.id } },
        expectedSchemaRevision: model.schemaRevision,
        description: 'Contacts to the CRM sync',
        idempotencyKey: 'assistant-create-1',
      })
    ).structuredContent;
    expect(webhook).toMatchObject({
      events: ['record.updated'],
      recordTrigger: { query: { typeId: contact.id } },
    });

    // 4. A record written with field names, then changed: the change is the subscribed event.
    const created = await call('create_record', { type: 'Contact', values: { Name: 'Ada Lovelace' } });
    const recordId = /id `([0-9a-f-]{36})`/.exec(created.content[0]!.text)![1]!;
    await call('update_record', { type: 'contact', recordId, values: { name: 'Ada King' } });

    const [sent] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(sent!.id)).toMatchObject({ status: 'failed', attempts: DELIVERY_MAX_ATTEMPTS });

    // 5. Find the failed delivery with the log filters, and read why it failed.
    const failed = (
      await call('manage_webhooks', { action: 'list_deliveries', status: 'failed', event: 'record.updated' })
    ).structuredContent;
    expect(failed.data).toHaveLength(1);
    const [delivery] = failed.data;
    expect(delivery).toMatchObject({ webhookId: webhook.id, statusCode: 500 });
    const details = (await call('manage_webhooks', { action: 'get_delivery', deliveryId: delivery.id }))
      .structuredContent;
    expect(details.status).toBe('failed');
    expect(details.attemptHistory).toHaveLength(DELIVERY_MAX_ATTEMPTS);
    for (const attempt of details.attemptHistory) {
      expect(attempt).toMatchObject({ statusCode: 500, responseMessage: 'Internal Server Error' });
    }
    expect(details.attemptHistory.at(-1).outcome).toBe('failed');
    expect(details.payload).toMatchObject({ record: { ref: { typeId: contact.id, recordId } } });

    // 6. The receiver is fixed; resend, and see it Delivered.
    receiver.replies('/crm', { status: 200 });
    const resent = (
      await call('manage_webhooks', {
        action: 'resend_delivery',
        deliveryId: delivery.id,
        idempotencyKey: 'assistant-resend-1',
      })
    ).structuredContent;
    expect(resent).toMatchObject({ resendOf: delivery.id, eventId: delivery.eventId, trigger: 'resend' });
    await fx.app.env.client.workflow.getHandle(resendWorkflowId(resent.id)).result();

    const delivered = (
      await call('manage_webhooks', { action: 'list_deliveries', id: webhook.id, status: 'delivered' })
    ).structuredContent;
    expect(delivered.data.map((row: { id: string }) => row.id)).toEqual([resent.id]);
    const after = (await call('manage_webhooks', { action: 'get_delivery', deliveryId: resent.id }))
      .structuredContent;
    expect(after).toMatchObject({ status: 'delivered', statusCode: 200 });
    expect(after.attemptHistory).toEqual([
      expect.objectContaining({ outcome: 'delivered', statusCode: 200 }),
    ]);
    const received = receiver.received.filter((request) => request.path === '/crm');
    expect(received.at(-1)!.json).toMatchObject({ event: 'record.updated', id: delivery.eventId });
  });

  it('refuses a field name that does not exist, naming the fields there are', async () => {
    const result = await mcp.call('create_record', { type: 'Contact', values: { Nmae: 'Typo' } });
    expect(result.isError).toBe(true);
    expect(result._meta!.failure).toMatchObject({
      kind: 'validation',
      issues: [{ path: ['values', 'Nmae'], customCode: 'recordFieldUnknown' }],
    });
    expect(result.content[0]!.text).toMatch(
      /No field "Nmae" in Contacts\. Its fields: Name, .*get_record_model/,
    );
  });
});
