import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { WebClient } from '../../helpers/web-client';

/**
 * Issue 27, item 3: a delivery found by what a person knows of it — the event id its receiver got,
 * the record it is about, its id or the short id the web app shows — on REST and MCP, each filter
 * combined with the others, scoped to the caller's workspace.
 */
describe('finding a delivery by event id, record id and short id', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let bKey: string;
  let first: { id: string };
  let second: { id: string };
  let deal: { id: string };
  /** The deliveries of the deal's record.created (to first, second) and record.updated (to both). */
  let created: Delivery[];
  let updated: Delivery[];
  let resent: { id: string; eventId: string };

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    first = await fx.webhook(`${receiver.url}/first`);
    second = await fx.webhook(`${receiver.url}/second`);
    deal = await fx.createDeal('Findable deal');
    await fx.api('PATCH', `/records/deal/${deal.id}`, { values: { Amount: 10 } });
    await fx.createDeal('Another deal');
    const rows = async (webhookId: string) => fx.deliveriesOf(webhookId, 3);
    const all = [...(await rows(first.id)), ...(await rows(second.id))].filter(
      (row) => (row.element as { recordId?: string }).recordId === deal.id,
    );
    created = all.filter((row) => row.event === 'record.created');
    updated = all.filter((row) => row.event === 'record.updated');
    expect([created.length, updated.length]).toEqual([2, 2]);
    await fx.finish(created[0]!.id);
    const resend = await fx.api(
      'POST',
      `/webhooks/${created[0]!.webhookId}/deliveries/${created[0]!.id}/resend`,
    );
    expect(resend.status).toBe(201);
    resent = resend.body;

    const b = await WebClient.signUp(fx.app.baseUrl, { email: 'prober@example.com' });
    bKey = (await b.client.ok('POST', '/app/api/api-keys', { name: 'b' })).value;
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const page = async (query: string, key = fx.key, path = '/webhooks/deliveries') => {
    const answer = await fx.api('GET', `${path}?${query}`, undefined, key);
    expect([query, answer.status]).toEqual([query, 200]);
    return answer.body as { data: { id: string }[]; nextCursor: string | null; total: unknown };
  };
  const ids = async (query: string, path?: string) =>
    (await page(query, fx.key, path)).data.map((delivery) => delivery.id).sort();
  const sorted = (...rows: { id: string }[]) => rows.map((row) => row.id).sort();

  it('finds every delivery of an event by its id: to each webhook, and its resend', async () => {
    const eventId = created[0]!.eventId;
    expect(resent.eventId).toBe(eventId);
    expect(await ids(`eventId=${eventId}`)).toEqual(sorted(...created, resent));
    expect(await ids(`eventId=${eventId.toUpperCase()}`)).toEqual(sorted(...created, resent));
    expect((await page(`eventId=${eventId}`)).total).toEqual({ count: 3, capped: false });
    // Combined with the other filters (all of them must match).
    expect(await ids(`eventId=${eventId}&webhookId=${second.id}`)).toEqual(
      sorted(...created.filter((row) => row.webhookId === second.id)),
    );
    expect(await ids(`eventId=${eventId}`, `/webhooks/${first.id}/deliveries`)).toEqual(
      sorted(...[...created, resent].filter((row) => (row as Delivery).webhookId !== second.id)),
    );
    expect(await ids(`eventId=${eventId}&event=record.updated`)).toEqual([]);
    // The search term keeps the spec's meaning: an event id is neither a URL nor an event name.
    expect(await ids(`searchTerm=${eventId}`)).toEqual([]);
  });

  it('finds the deliveries about a record by its id, with the other filters', async () => {
    expect(await ids(`recordId=${deal.id}`)).toEqual(sorted(...created, ...updated, resent));
    expect(await ids(`recordId=${deal.id.toUpperCase()}&event=record.updated`)).toEqual(sorted(...updated));
    expect(await ids(`recordId=${deal.id}&url=${encodeURIComponent(`${receiver.url}/second`)}`)).toEqual(
      sorted(...[...created, ...updated].filter((row) => row.webhookId === second.id)),
    );
    expect(await ids(`recordId=${deal.id}&createdTo=2020-01-01`)).toEqual([]);
  });

  it('finds a delivery by its short id (the first 8 hex digits), or by any longer start of its id', async () => {
    const target = updated[1]!;
    const short = target.id.slice(0, 8);
    expect(await ids(`idPrefix=${short}`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${short.toUpperCase()}`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${target.id.slice(0, 13)}`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${target.id.replaceAll('-', '').slice(0, 20)}`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${target.id}`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${short}&event=record.updated`)).toEqual([target.id]);
    expect(await ids(`idPrefix=${short}&event=record.created`)).toEqual([]);
  });

  it('refuses a malformed id with the spec body at its parameter, never a 500', async () => {
    const cases: [string, string][] = [
      ['eventId=not-an-id', 'eventId'],
      [`eventId=${created[0]!.eventId.slice(0, 8)}`, 'eventId'],
      ['recordId=1234', 'recordId'],
      ['idPrefix=1a2b3c4', 'idPrefix'],
      ['idPrefix=1a2b-3c4d', 'idPrefix'],
      ['idPrefix=record.created', 'idPrefix'],
      [`idPrefix=${'a'.repeat(40)}`, 'idPrefix'],
    ];
    for (const [query, parameter] of cases) {
      const answer = await fx.api('GET', `/webhooks/deliveries?${query}`);
      expect([query, answer.status, answer.body.error.kind]).toEqual([query, 400, 'validation']);
      expect(answer.body.error.issues).toEqual([expect.objectContaining({ path: [parameter] })]);
    }
    const message = (await fx.api('GET', '/webhooks/deliveries?idPrefix=1a2b')).body.error.issues[0].message;
    expect(message).toContain('first 8 or more hex digits');
    const uuid = (await fx.api('GET', '/webhooks/deliveries?recordId=x')).body.error.issues[0].message;
    expect(uuid).toBe('recordId must be a whole record id: 8-4-4-4-12 hex digits.');
  });

  it('finds nothing of another workspace: its ids answer exactly as ids nobody used (attacker side)', async () => {
    const nobody = '00000000-0000-4000-8000-000000000000';
    const asB = async (query: string) => JSON.stringify(await page(query, bKey));
    const none = await asB(`eventId=${nobody}`);
    expect(JSON.parse(none)).toEqual({ data: [], nextCursor: null, total: { count: 0, capped: false } });
    expect(await asB(`eventId=${created[0]!.eventId}`)).toBe(none);
    expect(await asB(`recordId=${deal.id}`)).toBe(none);
    expect(await asB(`recordId=${nobody}`)).toBe(none);
    expect(await asB(`idPrefix=${created[0]!.id.slice(0, 8)}`)).toBe(none);
    expect(await asB(`idPrefix=${created[0]!.id}`)).toBe(none);
    expect(await asB(`idPrefix=${nobody.slice(0, 8)}`)).toBe(none);
  });

  it('offers the same filters to list_deliveries over MCP, and refuses a malformed one in _meta.failure', async () => {
    // list_deliveries is a tool of read-only connections; manage_webhooks of the others.
    const mcp = await connectMcp(fx.app.baseUrl, fx.key, { readOnly: true });
    const writer = await connectMcp(fx.app.baseUrl, fx.key);
    const asB = await connectMcp(fx.app.baseUrl, bKey, { readOnly: true });
    try {
      const listed = async (client: typeof mcp, args: Record<string, unknown>) => {
        const result = await client.call('list_deliveries', args);
        expect(result.isError).toBeFalsy();
        return (result.structuredContent.data as { id: string }[]).map((delivery) => delivery.id).sort();
      };
      const eventId = created[0]!.eventId;
      expect(await listed(mcp, { eventId })).toEqual(sorted(...created, resent));
      expect(await listed(mcp, { recordId: deal.id, event: 'record.updated' })).toEqual(sorted(...updated));
      expect(await listed(mcp, { deliveryIdPrefix: updated[0]!.id.slice(0, 8) })).toEqual([updated[0]!.id]);
      expect(await listed(mcp, { eventId, id: second.id })).toEqual(
        sorted(...created.filter((row) => row.webhookId === second.id)),
      );
      const action = await writer.call('manage_webhooks', { action: 'list_deliveries', recordId: deal.id });
      expect(action.structuredContent.total).toEqual({ count: 5, capped: false });

      const malformed = await mcp.call('list_deliveries', { deliveryIdPrefix: '1a2b' });
      expect(malformed.isError).toBe(true);
      expect(malformed._meta!.failure).toMatchObject({
        kind: 'validation',
        issues: [expect.objectContaining({ path: ['deliveryIdPrefix'] })],
      });

      expect(await listed(asB, { eventId })).toEqual([]);
      expect(await listed(asB, { recordId: deal.id })).toEqual([]);
      expect(await listed(asB, { deliveryIdPrefix: created[0]!.id.slice(0, 8) })).toEqual([]);

      // get_delivery takes the short id list_deliveries takes (issue 37, item 6), by the same rule.
      const wanted = updated[0]!.id;
      for (const deliveryId of [wanted.slice(0, 8), wanted.slice(0, 13), wanted.toUpperCase(), wanted]) {
        const got = await mcp.call('get_delivery', { deliveryId });
        expect([deliveryId, got.isError ?? false, got.structuredContent?.id]).toEqual([
          deliveryId,
          false,
          wanted,
        ]);
      }
      const viaAction = await writer.call('manage_webhooks', {
        action: 'get_delivery',
        deliveryId: wanted.slice(0, 8),
      });
      expect(viaAction.structuredContent.id).toBe(wanted);
      const short = await mcp.call('get_delivery', { deliveryId: '1a2b' });
      expect(short._meta!.failure).toMatchObject({
        kind: 'validation',
        issues: [expect.objectContaining({ path: ['deliveryId'] })],
      });
      // Another workspace's short id is not found, as its whole id is.
      const theirs = await asB.call('get_delivery', { deliveryId: wanted.slice(0, 8) });
      expect(theirs._meta!.failure).toMatchObject({ kind: 'not_found' });
    } finally {
      await mcp.client.close();
      await writer.client.close();
      await asB.client.close();
    }
  });
});
