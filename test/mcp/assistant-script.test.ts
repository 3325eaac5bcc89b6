import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { Receiver } from '../helpers/receiver';

/** What the assistant has learnt so far: only what tools/list and earlier answers gave it. */
interface Session {
  fx: DeliveryFixture;
  receiver: Receiver;
  mcp: Awaited<ReturnType<typeof connectMcp>>;
  tools: Tool[];
  webhook: { id: string };
  recordId: string;
  delivery: { id: string; eventId: string; attemptHistory: { statusCode: number | null }[] };
}

const call = async (session: Session, name: string, args: Record<string, unknown>) => {
  const result = await session.mcp.call(name, args);
  if (result.isError) throw new Error(`${name} refused: ${result.content[0]!.text}`);
  return result;
};

/** A refusal, as the assistant reads it: the text, with the hint of which tool gives the id it lacks. */
const refusal = async (
  session: Session,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> => {
  const result = await session.mcp.call(name, args);
  expect(result.isError).toBe(true);
  return result;
};

/**
 * Issue 27, "Done when": the scripted assistant session through the official SDK client (which
 * checks every answer against its tool's outputSchema), from names only, in the order an assistant
 * works, each step using what the earlier ones learnt. A step is one entry (test/deliveries/resend/retry-now.test.ts
 * checks Retry now's refusals and races on its own).
 */
const SCRIPT: [string, (session: Session) => Promise<void>][] = [
  [
    'reads what the tools take',
    async (session) => {
      session.tools = (await session.mcp.client.listTools()).tools;
      const names = session.tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['get_record_model', 'manage_webhooks']));
      const manage = session.tools.find((tool) => tool.name === 'manage_webhooks')!.inputSchema as any;
      expect(manage.properties.events.items.enum).toContain('record.updated');
      expect(manage.properties.recordTrigger.anyOf[0].properties.query.properties.typeId.description).toMatch(
        /get_record_model/,
      );
    },
  ],
  [
    'creates a webhook from names: a type name where an id belongs is refused with where ids come from',
    async (session) => {
      const url = `${session.receiver.url}/crm`;
      session.receiver.replies('/crm', { status: 500, statusText: 'Internal Server Error' });
      const byName = await refusal(session, 'manage_webhooks', {
        action: 'create',
        url,
        events: ['record.updated'],
        recordTrigger: { query: { typeId: 'Contact' }, changedFieldIds: ['Name'] },
      });
      expect(byName._meta!.failure.issues).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            path: ['recordTrigger', 'query', 'typeId'],
            customCode: 'queryTypeIdInvalid',
          }),
        ]),
      );
      expect(byName.content[0]!.text).toContain(
        'Use get_record_model to find the record types and their ids.',
      );

      const model = (await call(session, 'get_record_model', { type: 'Contact' })).structuredContent;
      const [contact] = model.types;
      const name = contact.fields.find((field: { name: string }) => field.name === 'Name');
      session.webhook = (
        await call(session, 'manage_webhooks', {
          action: 'create',
          url,
          events: ['record.updated'],
          recordTrigger: { query: { typeId: contact.id }, changedFieldIds: [name.id] },
          expectedSchemaRevision: model.schemaRevision,
          idempotencyKey: 'script-create-1',
        })
      ).structuredContent;
      expect(session.webhook).toMatchObject({
        recordTrigger: { query: { typeId: contact.id }, changedFieldIds: [name.id] },
      });
    },
  ],
  [
    'finds why a delivery failed, from its attempts, after looking it up by the wrong id',
    async (session) => {
      const created = await call(session, 'create_record', {
        type: 'Contact',
        values: { Name: 'Ada Lovelace' },
      });
      session.recordId = /id `([0-9a-f-]{36})`/.exec(created.content[0]!.text)![1]!;
      await call(session, 'update_record', {
        type: 'contact',
        recordId: session.recordId,
        values: { name: 'Ada King' },
      });

      // The record's id is not a delivery's: the refusal says where delivery ids come from.
      const wrongId = await refusal(session, 'manage_webhooks', {
        action: 'get_delivery',
        deliveryId: session.recordId,
      });
      expect(wrongId._meta!.failure).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'deliveryNotFound' }],
      });
      expect(wrongId.content[0]!.text).toContain(
        'Use manage_webhooks action list_deliveries (or list_deliveries) to find delivery ids.',
      );

      let details: any;
      await eventually(async () => {
        const [row] = (
          await call(session, 'manage_webhooks', { action: 'list_deliveries', id: session.webhook.id })
        ).structuredContent.data;
        details =
          row &&
          (await call(session, 'manage_webhooks', { action: 'get_delivery', deliveryId: row.id }))
            .structuredContent;
        return details?.attemptHistory.some((attempt: { outcome: string }) => attempt.outcome !== 'sending');
      }, 'the first attempt has its outcome');
      expect(details.attemptHistory[0]).toMatchObject({
        attempt: 1,
        statusCode: 500,
        responseMessage: 'Internal Server Error',
        outcome: 'retry', // another attempt follows
      });
      expect(details.payload).toMatchObject({ record: { ref: { recordId: session.recordId } } });
      session.delivery = details;
    },
  ],
  [
    'retries it now, once the receiver is fixed: the next attempt of the same delivery, no second chain',
    async (session) => {
      session.receiver.replies('/crm', { status: 200 });
      const answer = (
        await call(session, 'manage_webhooks', {
          action: 'retry_delivery_now',
          deliveryId: session.delivery.id,
          idempotencyKey: 'script-retry-now-1',
        })
      ).structuredContent;
      // Still retrying, with its next attempt now, unless that attempt already opened (as over REST).
      expect(answer).toMatchObject({ id: session.delivery.id, eventId: session.delivery.eventId });
      expect(
        answer.state === 'retrying'
          ? { status: answer.status, state: answer.state }
          : { opened: ['sending', 'delivered'].includes(answer.state) },
      ).toEqual(answer.state === 'retrying' ? { status: 'failed', state: 'retrying' } : { opened: true });

      let details: any;
      await eventually(async () => {
        details = (
          await call(session, 'manage_webhooks', { action: 'get_delivery', deliveryId: session.delivery.id })
        ).structuredContent;
        return details.status === 'delivered';
      }, 'the attempt brought forward delivered');
      expect(
        details.attemptHistory.map((attempt: { statusCode: number | null }) => attempt.statusCode),
      ).toEqual([500, 200]);
      // Still one delivery of the event: the retry ran inside it, not as a resend.
      const listed = (
        await call(session, 'manage_webhooks', { action: 'list_deliveries', id: session.webhook.id })
      ).structuredContent;
      expect(listed.data.map((row: { id: string }) => row.id)).toEqual([session.delivery.id]);
      // A second retry has nothing to bring forward.
      const again = await refusal(session, 'manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: session.delivery.id,
      });
      expect(again._meta!.failure.issues).toEqual([
        expect.objectContaining({ customCode: 'deliveryNotRetrying' }),
      ]);
    },
  ],
  [
    'finds it by its event id, as the receiver logged it, and by its short id',
    async (session) => {
      const byEvent = (
        await call(session, 'manage_webhooks', {
          action: 'list_deliveries',
          eventId: session.delivery.eventId,
        })
      ).structuredContent;
      expect(byEvent.data.map((row: { id: string }) => row.id)).toEqual([session.delivery.id]);
      const shortId = session.delivery.id.slice(0, 8);
      const byShortId = (
        await call(session, 'manage_webhooks', { action: 'list_deliveries', deliveryIdPrefix: shortId })
      ).structuredContent;
      expect(byShortId.data.map((row: { id: string }) => row.id)).toEqual([session.delivery.id]);
    },
  ],
];

describe('an assistant over MCP, scripted (issue 27)', () => {
  const session = {} as Session;

  beforeAll(async () => {
    session.fx = await deliveryFixture();
    session.receiver = await new Receiver().start();
    session.mcp = await connectMcp(session.fx.app.baseUrl, session.fx.key);
  });
  afterAll(async () => {
    await session.mcp?.client.close();
    await session.receiver?.stop();
    await session.fx?.close();
  });

  for (const [step, run] of SCRIPT) it(step, () => run(session));
});
