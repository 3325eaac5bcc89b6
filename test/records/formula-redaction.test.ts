import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { connectMcp, type ToolResult } from '../helpers/mcp';
import { Receiver } from '../helpers/receiver';
import { memberWithRole } from '../helpers/web-client';
import { withoutIds } from '../helpers/without-ids';

/**
 * Issue 10, hole 2, from the restricted member's side: with Amount restricted, the calculated
 * fields computed from it (Weighted amount, and a formula of that formula) are `restricted` for
 * that member in REST and MCP reads, lists and search, in Event Details, and in deliveries of a
 * webhook the member owns; filtering by any of them is refused rather than answering as an oracle.
 */

describe('calculated fields of restricted inputs (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let member: { key: string; userId: string };
  let mcp: { client: Client; call: (name: string, args: Record<string, unknown>) => Promise<ToolResult> };
  let doubled: string;
  let deal: { id: string };
  const RESTRICTED = { state: 'restricted' };
  const field = (name: string) => fx.field(name);
  const hidden = () => [field('Amount'), field('Weighted amount'), doubled];

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    const created = await fx.api('POST', `/model/types/${fx.deal.id}/fields`, {
      name: 'Doubled weighted',
      kind: 'formula',
      config: { expression: `{${field('Weighted amount')}} * 2` },
    });
    expect(created.status).toBe(201);
    doubled = created.body.id ?? created.body.field?.id;
    expect(doubled).toEqual(expect.any(String));

    const added = await memberWithRole(fx.admin, fx.app.baseUrl, 'noamount@example.com', {
      restrictedFieldIds: [field('Amount')],
    });
    member = { key: added.key, userId: added.userId };
    mcp = await connectMcp(fx.app.baseUrl, member.key);

    deal = await fx.createDeal('Formula deal', { [field('Amount')]: 1234, [field('Probability')]: 50 });
  });
  afterAll(async () => {
    await mcp?.client.close();
    await receiver?.stop();
    await fx?.close();
  });

  const asMember = (method: string, path: string, body?: unknown) => fx.api(method, path, body, member.key);

  it('stores the formula values the admin reads (the setup computes them)', async () => {
    const read = await fx.api('GET', `/records/deal/${deal.id}`);
    expect(read.body.values[field('Weighted amount')]).toMatchObject({ state: 'value', value: 617 });
    expect(read.body.values[doubled]).toMatchObject({ state: 'value', value: 1234 });
  });

  it('reads, lists and searches over REST with every derived formula restricted', async () => {
    const read = await asMember('GET', `/records/deal/${deal.id}`);
    expect(read.status).toBe(200);
    for (const id of hidden()) expect(read.body.values[id]).toEqual(RESTRICTED);
    expect(read.body.values[field('Probability')]).toMatchObject({ state: 'value', value: 50 });

    const listed = await asMember('GET', '/records/deal');
    const searched = await asMember('GET', `/records/deal?search=${encodeURIComponent('Formula deal')}`);
    for (const page of [listed, searched]) {
      expect(page.status).toBe(200);
      const row = page.body.data.find((view: { id: string }) => view.id === deal.id);
      for (const id of hidden()) expect(row.values[id]).toEqual(RESTRICTED);
    }
    expect(withoutIds(JSON.stringify([read.body, listed.body, searched.body]))).not.toMatch(/617|1234/);

    const model = await asMember('POST', '/model/read', { type: 'deal' });
    const flagged = model.body.type.fields.filter((f: { restricted: boolean }) => f.restricted);
    expect(flagged.map((f: { id: string }) => f.id).sort()).toEqual([...hidden()].sort());
  });

  it('refuses a filter on the restricted field and on each formula derived from it', async () => {
    for (const id of hidden()) {
      const filters = JSON.stringify([{ fieldId: id, op: 'gt', value: 1000 }]);
      const answer = await asMember('GET', `/records/deal?filters=${encodeURIComponent(filters)}`);
      expect([answer.status, answer.body.error?.issues[0]]).toEqual([
        400,
        expect.objectContaining({ customCode: 'recordFieldRestricted', path: ['filters', 0, 'fieldId'] }),
      ]);
    }
    // A readable formula input still filters.
    const filters = JSON.stringify([{ fieldId: field('Probability'), op: 'eq', value: 50 }]);
    const readable = await asMember('GET', `/records/deal?filters=${encodeURIComponent(filters)}`);
    expect(readable.body.data.map((view: { id: string }) => view.id)).toContain(deal.id);
  });

  it('reads and searches over MCP with the derived formulas restricted, and refuses their filters', async () => {
    const read = await mcp.call('read_record', { type: 'deal', recordId: deal.id });
    expect(read.isError).toBeFalsy();
    const text = read.content[0]!.text;
    for (const id of hidden()) expect(text).toContain(`\`${id}\` | (restricted) |`);
    expect(withoutIds(text)).not.toMatch(/617|1234/);

    const found = await mcp.call('search_records', { type: 'deal', search: 'Formula deal' });
    expect(found.content[0]!.text).toContain(deal.id);
    const oracle = await mcp.call('search_records', {
      type: 'deal',
      filters: [{ fieldId: doubled, op: 'gt', value: 1000 }],
    });
    expect(oracle.isError).toBe(true);
    expect(oracle._meta!.failure).toMatchObject({
      kind: 'validation',
      issues: [expect.objectContaining({ customCode: 'recordFieldRestricted' })],
    });

    const model = await mcp.call('get_record_model', { type: 'deal' });
    const restricted = model.structuredContent.types[0].fields.filter((f: any) => f.restricted);
    expect(restricted.map((f: { id: string }) => f.id).sort()).toEqual([...hidden()].sort());
  });

  it('delivers with the restricted owner’s access and shows Event Details with the viewer’s', async () => {
    const webhook = await fx.webhook(`${receiver.url}/owned`, {
      events: ['record.updated'],
      recordOwnerUserId: member.userId,
    });
    await fx.api('PATCH', `/records/deal/${deal.id}`, { values: { [field('Probability')]: 25 } });
    const [delivery] = await fx.deliveriesOf(webhook.id);
    const outcome = await fx.finish(delivery!.id);
    const row = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery!.id });
    // The message explains a failure (for example an outbound guard refusing the receiver).
    expect([outcome, row.responseMessage]).toEqual([
      { status: 'delivered', attempts: 1 },
      expect.any(String),
    ]);

    const sent = receiver.received.find((r) => r.path === '/owned')!;
    const fields = sent.json.data.record.fields as { fieldId: string; before: unknown; after: unknown }[];
    const byId = new Map(fields.map((f) => [f.fieldId, f]));
    expect(byId.get(field('Probability'))).toMatchObject({ after: { state: 'value', value: 25 } });
    for (const id of [field('Weighted amount'), doubled]) {
      expect(byId.get(id)).toMatchObject({ before: RESTRICTED, after: RESTRICTED });
    }
    expect(withoutIds(sent.rawBody.toString())).not.toMatch(/617|1234|308\.5/);

    const details = await asMember('GET', `/webhooks/${webhook.id}/deliveries/${delivery!.id}`);
    expect(details.status).toBe(200);
    const shown = details.body.payload.record.fields as { fieldId: string; after: unknown }[];
    for (const id of [field('Weighted amount'), doubled]) {
      expect(shown.find((f) => f.fieldId === id)).toMatchObject({ before: RESTRICTED, after: RESTRICTED });
    }
    expect(withoutIds(JSON.stringify(details.body.payload))).not.toMatch(/617|1234|308\.5/);

    // The admin's Event Details show the values (the stored event keeps them).
    const adminDetails = await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${delivery!.id}`);
    expect(
      adminDetails.body.payload.record.fields.find((f: { fieldId: string }) => f.fieldId === doubled).after,
    ).toMatchObject({ state: 'value', value: 617 });
  });
});
