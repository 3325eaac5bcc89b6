import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { WEBHOOK_EVENTS } from '../../src/shared/events/event-catalog';
import { BODY_TEMPLATE_MAX, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_SECRET_MAX } from '../../src/shared/limits';
import { WEBHOOK_HEADERS_MAX_COUNT } from '../../src/shared/webhooks/webhook-headers';
import { resendWorkflowId } from '../../workflows/resend-delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { Receiver } from '../helpers/receiver';
import { addMemberByInvitation, WebClient } from '../helpers/web-client';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;

/**
 * Issue 13, "MCP an assistant can use unaided": per-action inputs, every input described, event
 * names as an enum, the real limits, honest annotations and an outputSchema the official SDK client
 * validates every answer against (it throws on a mismatch), and the refusals seen from outside.
 */
describe('MCP webhook tools', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let mcp: Mcp;
  /** A read-only connection (X-MCP-Readonly): its tools are manage_webhooks' reads, on their own. */
  let reader: Mcp;
  /** The tools of both connections (the read-only one repeats the record reads). */
  let tools: Tool[];
  const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    mcp = await connectMcp(fx.app.baseUrl, fx.key);
    reader = await connectMcp(fx.app.baseUrl, fx.key, { readOnly: true });
    // listTools caches each outputSchema: from here on every callTool answer is validated by the SDK.
    tools = [...(await mcp.client.listTools()).tools, ...(await reader.client.listTools()).tools];
  });
  afterAll(async () => {
    await mcp?.client.close();
    await reader?.client.close();
    await receiver?.stop();
    await fx?.close();
  });

  const READ_ONLY_TOOLS = [
    'list_webhooks',
    'get_webhook',
    'list_deliveries',
    'get_delivery',
    'get_resend_batch',
  ];
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = await (READ_ONLY_TOOLS.includes(name) ? reader : mcp).call(name, args);
    expect(result.isError).toBeFalsy();
    return result.structuredContent;
  };

  describe('tools/list', () => {
    it('advertises flat object inputs (no root oneOf/anyOf/allOf) with every input described', () => {
      for (const { name, inputSchema } of tools) {
        for (const keyword of ['oneOf', 'anyOf', 'allOf', 'if'])
          expect(inputSchema).not.toHaveProperty(keyword);
        expect(inputSchema.type).toBe('object');
        for (const [property, schema] of Object.entries(inputSchema.properties ?? {})) {
          expect({ name, property, described: typeof (schema as any).description }).toEqual({
            name,
            property,
            described: 'string',
          });
        }
      }
    });

    it('says per action which inputs it takes and which it requires', () => {
      const { properties } = tool('manage_webhooks').inputSchema as any;
      expect(properties.action.enum).toEqual([
        'create',
        'list',
        'get',
        'update',
        'rotate_secret',
        'delete',
        'list_deliveries',
        'resend_delivery',
        'retry_delivery_now',
        'get_delivery',
        'send_test_event',
        'resend_failed',
        'get_resend_batch',
        'list_notices',
        'dismiss_notice',
      ]);
      expect(properties.action.description).toContain('- get_delivery:');
      // Which actions take an input is said once, in their lines, not again on each property.
      expect(properties.action.description).toContain('- get_resend_batch: ');
      expect(properties.action.description).toMatch(/- get_resend_batch: .* Inputs: batchId \(required\)\./);
      expect(JSON.stringify(properties)).not.toContain('Actions:');
      expect(properties.action.description).toContain('- get_delivery: ');
      expect(properties.action.description).toContain('Inputs: deliveryId (required).');
      expect(properties.action.description).toContain('Inputs: id (required), since (required).');
      // Compared as sets, not in order: a new field may sit anywhere in the schema.
      const inputsOf = (action: string) =>
        (new RegExp(`- ${action}: .* Inputs: ([^.]*)\\.`).exec(properties.action.description)?.[1] ?? '')
          .split(', ')
          .sort();
      expect(inputsOf('create')).toEqual(
        expect.arrayContaining(['url (required)', 'description', 'events (required)', 'secret']),
      );
      // update takes every input of create, none required: said once, not listed again.
      expect(inputsOf('update')).toEqual(['id (required)', 'those of create (none required)']);
      expect(properties.idempotencyKey.description).toMatch(/^Any unique string/);
      for (const action of ['resend_delivery', 'retry_delivery_now', 'get_delivery']) {
        expect(properties.action.description).toMatch(
          new RegExp(`- ${action}: .* Inputs: deliveryId \\(required\\)\\.`),
        );
      }
    });

    it('lists the selectable event names and the limits of the rules', () => {
      const { properties } = tool('manage_webhooks').inputSchema as any;
      expect(properties.events.items.enum).toEqual([...WEBHOOK_EVENTS]);
      expect(properties.events.items.enum).not.toContain('deal.updated');
      expect(properties.events.minItems).toBe(1);
      expect(properties.description.maxLength).toBe(WEBHOOK_DESCRIPTION_MAX);
      expect(properties.secret).toMatchObject({ minLength: 1, maxLength: WEBHOOK_SECRET_MAX });
      expect(properties.bodyTemplate.anyOf[0].maxLength).toBe(BODY_TEMPLATE_MAX);
      expect(properties.headers.anyOf[0].maxProperties).toBe(WEBHOOK_HEADERS_MAX_COUNT);
      expect(properties.limit).toMatchObject({ minimum: 1, maximum: 200 });
      const list = tool('list_deliveries').inputSchema as any;
      expect(list.properties.status.enum).toEqual(['pending', 'sending', 'delivered', 'failed']);
      expect(list.properties.status.description).not.toMatch(/no attempt follows/);
      expect(list.properties.state.enum).toEqual(['pending', 'sending', 'delivered', 'retrying', 'failed']);
      expect(tool('search_records').inputSchema.properties!.filters).toMatchObject({ maxItems: 20 });
    });

    it('marks reads read-only and only manage_webhooks destructive', () => {
      for (const name of [
        'list_webhooks',
        'get_webhook',
        'list_deliveries',
        'get_delivery',
        'get_resend_batch',
      ]) {
        expect(tool(name).annotations).toMatchObject({ readOnlyHint: true });
      }
      expect(tool('manage_webhooks').annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: true,
      });
      const destructive = tools.filter((candidate) => candidate.annotations?.destructiveHint);
      expect(destructive.map((candidate) => candidate.name)).toEqual(['manage_webhooks']);
    });

    it('gives every tool that answers structuredContent an object outputSchema', () => {
      for (const name of [
        'manage_webhooks',
        'list_webhooks',
        'get_webhook',
        'list_deliveries',
        'get_delivery',
        'get_resend_batch',
      ]) {
        expect(tool(name).outputSchema).toMatchObject({ type: 'object' });
      }
      expect(tool('get_record_model').outputSchema).toMatchObject({ type: 'object' });
    });

    it('describes a webhook’s health with its endpoint’s state (issue 23): its shape in the reads’ outputSchema, its meaning where the model reads it', () => {
      const healthOf = (schema: any) => schema.properties.health;
      const webhookOfList = (tool('list_webhooks').outputSchema as any).properties.data.items;
      for (const health of [healthOf(tool('get_webhook').outputSchema), healthOf(webhookOfList)]) {
        expect(health.required).toEqual(['lastDelivery', 'last24h', 'last7d', 'endpoint']);
        const endpoint = health.properties.endpoint;
        expect(endpoint.type).toEqual(['object', 'null']);
        expect(endpoint.required).toEqual(['state', 'reason', 'since']);
        expect(endpoint.properties.state.enum).toEqual(['healthy', 'degraded', 'failing']);
      }
      // What each state means, for an assistant explaining slow deliveries: in the text it is given
      // (the clients we know give the model no outputSchema, which therefore carries no descriptions).
      const action = (tool('manage_webhooks').inputSchema as any).properties.action.description;
      for (const text of [tool('get_webhook').description, action]) {
        expect(text).toMatch(/healthy, degraded \(latest attempt failed: deliveries wait in the slow lane\)/);
        expect(text).toMatch(/failing \(3 failures in a row\), with reason and since when/);
      }
      expect(JSON.stringify(tool('get_webhook').outputSchema)).not.toMatch(/"description":"/);
      expect(tool('list_webhooks').description).toMatch(/each with its health/);
    });
  });

  describe('every tool and action answers what its outputSchema says (the SDK client checks)', () => {
    it('webhook actions, the read-only tools, and the delivery actions', async () => {
      receiver.replies('/ok', { status: 200 });
      const created = await ok('manage_webhooks', {
        action: 'create',
        url: `${receiver.url}/ok`,
        events: ['record.created'],
        recordTrigger: { query: { typeId: fx.deal.id } },
        expectedSchemaRevision: (await ok('get_record_model', { type: 'Deal' })).schemaRevision,
        description: 'all actions',
        secret: 's3cret',
        headers: { 'X-Team': 'crm' },
        bodyTemplate: '{"event":"{{event}}"}',
      });
      expect(created).toMatchObject({ hasSecret: true, headerNames: ['X-Team'] });
      expect(created).not.toHaveProperty('secret');
      expect(await ok('manage_webhooks', { action: 'get', id: created.id })).toEqual(created);
      expect(await ok('get_webhook', { id: created.id })).toEqual(created);
      const updated = await ok('manage_webhooks', {
        action: 'update',
        id: created.id,
        bodyTemplate: null,
        headers: null,
      });
      expect(updated).toMatchObject({ bodyTemplate: null, headerNames: [] });
      expect((await ok('manage_webhooks', { action: 'list' })).data).toHaveLength(1);
      expect(await ok('list_webhooks', { search: 'nothing-like-this' })).toEqual({
        data: [],
        nextCursor: null,
      });

      await fx.createDeal('Output schema deal');
      const [delivery] = await fx.deliveriesOf(created.id);
      await fx.finish(delivery!.id);
      const listed = await ok('list_deliveries', { id: created.id, status: 'delivered' });
      expect(listed.data.map((row: { id: string }) => row.id)).toEqual([delivery!.id]);
      expect(await ok('manage_webhooks', { action: 'list_deliveries', id: created.id })).toEqual(listed);
      const details = await ok('get_delivery', { deliveryId: delivery!.id });
      expect(details).toMatchObject({ id: delivery!.id, status: 'delivered', statusCode: 200 });
      expect(details.attemptHistory).toEqual([
        expect.objectContaining({ attempt: 1, statusCode: 200, outcome: 'delivered' }),
      ]);
      expect(await ok('manage_webhooks', { action: 'get_delivery', deliveryId: delivery!.id })).toEqual(
        details,
      );
      const resent = await ok('manage_webhooks', { action: 'resend_delivery', deliveryId: delivery!.id });
      expect(resent).toMatchObject({ resendOf: delivery!.id, trigger: 'resend' });
      await fx.app.env.client.workflow.getHandle(resendWorkflowId(resent.id)).result();

      expect(await ok('manage_webhooks', { action: 'delete', id: created.id })).toEqual({
        id: created.id,
        deleted: true,
      });
      // The deleted webhook's deliveries stay readable by delivery id.
      expect((await ok('get_delivery', { deliveryId: delivery!.id })).id).toBe(delivery!.id);
    });
  });

  describe('refusals from the caller’s side', () => {
    const failure = (result: ToolResult) => {
      expect(result.isError).toBe(true);
      return result._meta!.failure;
    };

    it('names the path of a bad field, per action', async () => {
      const wrongField = await mcp.call('manage_webhooks', {
        action: 'get',
        id: '00000000-0000-4000-8000-000000000000',
        url: 'https://example.com',
      });
      expect(failure(wrongField)).toEqual({
        kind: 'validation',
        issues: [expect.objectContaining({ path: ['url'], customCode: 'unknownField' })],
      });
      const missing = await mcp.call('manage_webhooks', { action: 'create', url: 'https://example.com' });
      expect(failure(missing).issues).toEqual([
        expect.objectContaining({ path: ['events'], customCode: 'required' }),
      ]);
      const unknownAction = await mcp.call('manage_webhooks', { action: 'explode' });
      expect(failure(unknownAction).issues).toEqual([expect.objectContaining({ path: ['action'] })]);
      const badStatus = await reader.call('list_deliveries', { status: 'lost' });
      expect(failure(badStatus).issues).toEqual([expect.objectContaining({ path: ['status'] })]);
      const tooLong = await reader.call('list_deliveries', { limit: 201 });
      expect(failure(tooLong).issues).toEqual([
        expect.objectContaining({ path: ['limit'], customCode: 'tooLong' }),
      ]);
      const idOnReadTool = await reader.call('get_delivery', { deliveryId: 'nope' });
      expect(failure(idOnReadTool).issues).toEqual([expect.objectContaining({ path: ['deliveryId'] })]);
      const event = await mcp.call('manage_webhooks', {
        action: 'create',
        url: 'https://example.com',
        events: ['deal.updated'],
      });
      expect(failure(event).issues).toEqual([
        expect.objectContaining({ path: ['events', 0], customCode: 'webhookEventRetired' }),
      ]);
    });

    it('answers not_found for another workspace’s delivery and webhook, and changes nothing', async () => {
      const webhook = await fx.webhook(`${receiver.url}/theirs`);
      await fx.createDeal('Not yours');
      const [delivery] = await fx.deliveriesOf(webhook.id);
      await fx.finish(delivery!.id);

      const stranger = await WebClient.signUp(fx.app.baseUrl, { email: 'mcp-stranger@example.com' });
      const strangerKey = (await stranger.client.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
      const theirs = await connectMcp(fx.app.baseUrl, strangerKey);
      const theirReader = await connectMcp(fx.app.baseUrl, strangerKey, { readOnly: true });
      await theirs.client.listTools();
      await theirReader.client.listTools();
      for (const [client, name, args] of [
        [theirReader, 'get_delivery', { deliveryId: delivery!.id }],
        [theirs, 'manage_webhooks', { action: 'get_delivery', deliveryId: delivery!.id }],
        [theirs, 'manage_webhooks', { action: 'resend_delivery', deliveryId: delivery!.id }],
      ] as const) {
        expect(failure(await client.call(name, args))).toMatchObject({
          kind: 'not_found',
          issues: [{ customCode: 'deliveryNotFound' }],
        });
      }
      expect(failure(await theirReader.call('get_webhook', { id: webhook.id }))).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'webhookNotFound' }],
      });
      expect(await theirReader.call('list_deliveries', {})).toMatchObject({
        structuredContent: { data: [], nextCursor: null },
      });
      await theirs.client.close();
      await theirReader.client.close();
      expect(await fx.deliveriesOf(webhook.id)).toHaveLength(1);
    });

    it('refuses writes to a role without Create, and lets it read', async () => {
      const email = 'mcp-reader@example.com';
      const role = await fx.admin.ok('POST', '/app/api/roles', {
        name: 'MCP reader',
        apiRead: 'all',
        apiCreate: true,
      });
      const member = (await addMemberByInvitation(fx.app.baseUrl, fx.admin, { email, roleId: role.id }))
        .client;
      const key = (await member.ok('POST', '/app/api/api-keys', { name: 'k' })).value;
      await fx.admin.ok('PATCH', `/app/api/roles/${role.id}`, { apiRead: 'all', apiCreate: false });

      const reader = await connectMcp(fx.app.baseUrl, key);
      await reader.client.listTools();
      const before = (await ok('list_webhooks', {})).data.length;
      const refused = await reader.call('manage_webhooks', {
        action: 'create',
        url: 'https://example.com/hook',
        events: ['messaging.chat.updated'],
      });
      expect(failure(refused)).toMatchObject({ kind: 'authorization' });
      const [delivery] = (await ok('list_deliveries', { status: 'delivered' })).data;
      const resend = await reader.call('manage_webhooks', {
        action: 'resend_delivery',
        deliveryId: delivery.id,
      });
      expect(failure(resend)).toMatchObject({ kind: 'authorization' });
      expect((await reader.call('manage_webhooks', { action: 'list' })).isError).toBeFalsy();
      await reader.client.close();
      expect((await ok('list_webhooks', {})).data).toHaveLength(before);
    });
  });
});
