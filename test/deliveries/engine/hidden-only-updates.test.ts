import { recordEventEnvelopeSchema } from '../../../src/deliveries/engine/envelope-view';
import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { resendWorkflowId } from '../../../workflows/resend-delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { connectMcp, type ToolResult } from '../../helpers/mcp';
import { Receiver, type Received } from '../../helpers/receiver';
import { memberWithRole } from '../../helpers/web-client';
import { withoutIds } from '../../helpers/without-ids';

type Mcp = Awaited<ReturnType<typeof connectMcp>>;

const SECRET = 'hidden-only-secret';
const RESTRICTED = { state: 'restricted' };

/**
 * Issue 33, item 1 (docs/deliveries.md#what-the-record-owner-cannot-read): a record.updated that changed only
 * Amount (and Weighted amount, its formula) reaches a webhook whose record owner's role hides
 * Amount: a delivery row and a signed POST in the spec's envelope, both fields `restricted` on both
 * sides. The owner's access is read when each attempt is rendered, so a role changed between the
 * dispatch and an attempt (Retry now, over REST and MCP) or a resend applies to it. From the
 * owner's side: the hidden values are in no body sent, no Event Details (REST, MCP) and no kept
 * request body rendered while the role hid them.
 */
describe('updates of only fields the record owner cannot read (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let adminMcp: Mcp;
  const owners: Mcp[] = [];
  let amount: string;
  let weighted: string;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver(SECRET).start();
    adminMcp = await connectMcp(fx.app.baseUrl, fx.key);
    amount = fx.field('Amount');
    weighted = fx.field('Weighted amount');
  });
  afterAll(async () => {
    for (const mcp of [adminMcp, ...owners]) await mcp?.client.close();
    await receiver?.stop();
    await fx?.close();
  });

  const requestsTo = (path: string) => receiver.received.filter((request) => request.path === path);
  const row = (id: string) => fx.app.dataSource.manager.findOneByOrFail(Delivery, { id });
  const ok = async (mcp: Mcp, name: string, args: object) => {
    const result: ToolResult = await mcp.call(name, args as Record<string, unknown>);
    if (result.isError) throw new Error(`${name} refused: ${result.content[0]!.text}`);
    return result;
  };

  /** A member who owns their webhooks, with a role of their own (named after them) hiding `hidden`. */
  async function owner(email: string, hidden: string[]) {
    const member = await memberWithRole(fx.admin, fx.app.baseUrl, email, { restrictedFieldIds: hidden });
    const mcp = await connectMcp(fx.app.baseUrl, member.key);
    owners.push(mcp);
    const setHidden = async (restrictedFieldIds: string[]) => {
      const roles = (await fx.admin.ok('GET', '/app/api/roles')).data;
      const role = roles.find((candidate: { name: string }) => candidate.name === email);
      await fx.admin.ok('PATCH', `/app/api/roles/${role.id}`, { restrictedFieldIds });
    };
    return { ...member, mcp, setHidden };
  }
  const restWebhook = async (key: string, path: string) => {
    const created = await fx.api(
      'POST',
      '/webhooks',
      {
        url: `${receiver.url}${path}`,
        events: ['record.updated'],
        secret: SECRET,
        recordTrigger: { query: { typeId: fx.deal.id } },
        expectedSchemaRevision: (await fx.api('POST', '/model/read', { type: 'deal' }, key)).body
          .schemaRevision,
      },
      key,
    );
    expect(created.status).toBe(201);
    return created.body;
  };
  const mcpWebhook = async (mcp: Mcp, path: string) => {
    const model = (await ok(mcp, 'get_record_model', { type: 'deal' })).structuredContent;
    return (
      await ok(mcp, 'manage_webhooks', {
        action: 'create',
        url: `${receiver.url}${path}`,
        events: ['record.updated'],
        secret: SECRET,
        recordTrigger: { query: { typeId: model.types[0].id } },
        expectedSchemaRevision: model.schemaRevision,
      })
    ).structuredContent;
  };
  /** A deal with Amount `before` (Weighted amount half of it), then Amount alone set to `after`, over `via`. */
  async function amountOnlyUpdate(via: 'rest' | 'mcp', before: number, after: number) {
    const deal = await fx.createDeal(`Deal updated over ${via}`, {
      [amount]: before,
      [fx.field('Probability')]: 50,
    });
    if (via === 'rest') {
      expect(
        (await fx.api('PATCH', `/records/deal/${deal.id}`, { values: { [amount]: after } })).status,
      ).toBe(200);
    } else {
      await ok(adminMcp, 'update_record', { type: 'deal', recordId: deal.id, values: { [amount]: after } });
    }
    return { recordId: deal.id as string, values: [before, after, before / 2, after / 2] };
  }

  /**
   * A new owner's webhook on `path`, whose receiver answers 503 once, and its delivery of an update
   * of only Amount, retrying after that first attempt: the gap a role change falls into.
   */
  async function retryingAfterFirstAttempt(setup: {
    path: string;
    email: string;
    hidden: string[];
    via: 'rest' | 'mcp';
    amounts: [number, number];
  }) {
    receiver.replies(setup.path, { status: 503 }, { status: 200 });
    const member = await owner(setup.email, setup.hidden);
    const webhook =
      setup.via === 'rest'
        ? await restWebhook(member.key, setup.path)
        : await mcpWebhook(member.mcp, setup.path);
    const update = await amountOnlyUpdate(setup.via, ...setup.amounts);
    const delivery = (await fx.deliveriesOf(webhook.id))[0]!;
    await eventually(async () => (await row(delivery.id)).nextAttemptAt !== null, 'the first attempt failed');
    return { member, webhook, delivery, ...update };
  }

  const leaks = (text: string, values: number[]) =>
    values.filter((value) => withoutIds(text).includes(String(Math.trunc(value))));
  /** A signed record.updated in the spec's envelope whose changes, Amount and Weighted amount, read restricted. */
  function expectRestrictedUpdate(sent: Received, delivery: Delivery, recordId: string, cause: string) {
    expect(sent.signatureValid).toBe(true);
    expect(sent.headers['x-service-delivery-id']).toBe(delivery.id);
    expect(Object.keys(sent.json)).toEqual(['event', 'id', 'timestamp', 'companyId', 'actorId', 'data']);
    expect(recordEventEnvelopeSchema.safeParse(sent.json).success).toBe(true);
    expect(sent.json).toMatchObject({
      event: 'record.updated',
      id: delivery.eventId,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      companyId: delivery.workspaceId,
      actorId: fx.userId,
      data: {
        causeId: expect.any(String),
        cause: { kind: cause },
        record: {
          ref: { typeId: fx.deal.id, recordId },
          schemaRevision: expect.any(Number),
          beforeVersion: 1,
          afterVersion: 2,
        },
      },
    });
    expect(sent.json.data.record.fields).toEqual([
      {
        fieldId: amount,
        display: expect.objectContaining({ label: 'Amount' }),
        before: RESTRICTED,
        after: RESTRICTED,
      },
      {
        fieldId: weighted,
        display: expect.objectContaining({ label: 'Weighted amount' }),
        before: RESTRICTED,
        after: RESTRICTED,
      },
    ]);
  }
  /** Event Details as the owner reads them over REST and MCP: restricted, every kept body withheld. */
  async function expectOwnerReadsNoValue(
    member: { key: string; mcp: Mcp },
    webhookId: string,
    deliveryId: string,
    values: number[],
  ) {
    const rest = await fx.api(
      'GET',
      `/webhooks/${webhookId}/deliveries/${deliveryId}`,
      undefined,
      member.key,
    );
    expect(rest.status).toBe(200);
    const mcp = await ok(member.mcp, 'manage_webhooks', { action: 'get_delivery', deliveryId });
    for (const details of [rest.body, mcp.structuredContent]) {
      const shown = new Map(details.payload.record.fields.map((f: { fieldId: string }) => [f.fieldId, f]));
      for (const id of [amount, weighted]) {
        expect(shown.get(id)).toMatchObject({ before: RESTRICTED, after: RESTRICTED });
      }
      for (const attempt of details.attemptHistory) {
        expect(attempt.request).toMatchObject({ body: null, bodyWithheld: { reason: 'viewerAccess' } });
      }
      expect(leaks(JSON.stringify(details), values)).toEqual([]);
    }
    expect(leaks(JSON.stringify(mcp.content), values)).toEqual([]);
  }
  /** What the attempt keeps of the request it sent (shown in Event Details to who may read it all). */
  const keptBody = async (deliveryId: string, attempt: number): Promise<string> =>
    (
      await fx.app.dataSource.query(
        `SELECT request_body FROM delivery_attempts WHERE delivery_id = $1 AND attempt = $2 ORDER BY send DESC`,
        [deliveryId, attempt],
      )
    )[0].request_body;

  it('REST: delivers it to the owner whose role hides Amount, restricted on both sides, and shows no value', async () => {
    const hana = await owner('hana@example.com', [amount]);
    const webhook = await restWebhook(hana.key, '/rest');
    const { recordId, values } = await amountOnlyUpdate('rest', 3141592, 4817263);

    const delivery = (await fx.deliveriesOf(webhook.id))[0]!;
    expect(delivery).toMatchObject({ event: 'record.updated', element: { typeId: fx.deal.id, recordId } });
    expect(await fx.finish(delivery.id)).toEqual({ status: 'delivered', attempts: 1 });
    const [sent] = requestsTo('/rest');
    expectRestrictedUpdate(sent!, delivery, recordId, 'api');
    expect(leaks(sent!.rawBody.toString(), values)).toEqual([]);
    expect(await keptBody(delivery.id, 1)).toBe(sent!.rawBody.toString());

    await expectOwnerReadsNoValue(hana, webhook.id, delivery.id, values);
    // The stored event keeps the values: the Admin reads them, so the checks above would catch one.
    const admin = await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${delivery.id}`);
    expect(leaks(JSON.stringify(admin.body.payload), values)).toHaveLength(values.length);
  });

  it('MCP: a webhook made with manage_webhooks gets an update_record of only Amount, restricted', async () => {
    const mona = await owner('mona@example.com', [amount]);
    const webhook = await mcpWebhook(mona.mcp, '/mcp');
    const { recordId, values } = await amountOnlyUpdate('mcp', 2718281, 5772156);

    const delivery = (await fx.deliveriesOf(webhook.id))[0]!;
    expect(await fx.finish(delivery.id)).toEqual({ status: 'delivered', attempts: 1 });
    const [sent] = requestsTo('/mcp');
    expectRestrictedUpdate(sent!, delivery, recordId, 'mcp');
    expect(leaks(sent!.rawBody.toString(), values)).toEqual([]);
    expect(leaks(await keptBody(delivery.id, 1), values)).toEqual([]);

    // There to find in the owner's log.
    const log = (await ok(mona.mcp, 'manage_webhooks', { action: 'list_deliveries', id: webhook.id }))
      .structuredContent;
    expect(log.data.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([
      [delivery.id, 'delivered'],
    ]);
    await expectOwnerReadsNoValue(mona, webhook.id, delivery.id, values);
  });

  it('REST Retry now: a role that reads Amount since the dispatch renders the next attempt with the values', async () => {
    const {
      member: wade,
      webhook,
      delivery,
      recordId,
      values,
    } = await retryingAfterFirstAttempt({
      path: '/widened',
      email: 'wade@example.com',
      hidden: [amount],
      via: 'rest',
      amounts: [1618033, 1414213],
    });
    expectRestrictedUpdate(requestsTo('/widened')[0]!, delivery, recordId, 'api');
    expect(leaks(await keptBody(delivery.id, 1), values)).toEqual([]);

    await wade.setHidden([]);
    const retried = await fx.api(
      'POST',
      `/webhooks/${webhook.id}/deliveries/${delivery.id}/retry-now`,
      undefined,
      wade.key,
    );
    expect(retried.status).toBe(202);
    await eventually(
      async () => (await row(delivery.id)).status === 'delivered',
      'the second attempt delivered',
    );
    expect(await row(delivery.id)).toMatchObject({ attempts: 2 });

    const second = requestsTo('/widened')[1]!;
    expect(second.json.id).toBe(delivery.eventId);
    expect(second.json.data.record.fields).toEqual([
      expect.objectContaining({
        fieldId: amount,
        before: { state: 'value', kind: 'number', value: 1618033 },
        after: { state: 'value', kind: 'number', value: 1414213 },
      }),
      expect.objectContaining({ fieldId: weighted, after: expect.objectContaining({ state: 'value' }) }),
    ]);
  });

  it('MCP Retry now and resend: a role that hides Amount since the dispatch renders restricted from then on', async () => {
    const {
      member: nora,
      webhook,
      delivery,
      recordId,
      values,
    } = await retryingAfterFirstAttempt({
      path: '/narrowed',
      email: 'nora@example.com',
      hidden: [],
      via: 'mcp',
      amounts: [2236067, 1732050],
    });
    // Sent while Nora could read Amount: the values, as her access then allowed.
    const [first] = requestsTo('/narrowed');
    expect(first!.json.data.record.fields[0].after).toEqual({
      state: 'value',
      kind: 'number',
      value: 1732050,
    });

    await nora.setHidden([amount]);
    await ok(nora.mcp, 'manage_webhooks', { action: 'retry_delivery_now', deliveryId: delivery.id });
    await eventually(
      async () => (await row(delivery.id)).status === 'delivered',
      'the second attempt delivered',
    );
    const second = requestsTo('/narrowed')[1]!;
    expectRestrictedUpdate(second, delivery, recordId, 'mcp');
    expect(leaks(second.rawBody.toString(), values)).toEqual([]);
    expect(leaks(await keptBody(delivery.id, 2), values)).toEqual([]);
    // The first attempt's kept body, rendered while she could read Amount, is withheld from her now.
    await expectOwnerReadsNoValue(nora, webhook.id, delivery.id, values);

    const resent = (
      await ok(nora.mcp, 'manage_webhooks', { action: 'resend_delivery', deliveryId: delivery.id })
    ).structuredContent;
    await fx.app.env.client.workflow.getHandle(resendWorkflowId(resent.id)).result();
    const third = requestsTo('/narrowed')[2]!;
    expectRestrictedUpdate(third, await row(resent.id), recordId, 'mcp');
    expect(leaks(third.rawBody.toString(), values)).toEqual([]);
    await expectOwnerReadsNoValue(nora, webhook.id, resent.id, values);
  });
});
