import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { connectMcp } from '../../helpers/mcp';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { Receiver } from '../../helpers/receiver';

/** Issue 13, first row: the delivery log filtered by the database, on REST and MCP alike. */
describe('delivery log filters', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let first: any;
  let second: any;
  let delivered: string;
  let failed: string;
  let dealId: string;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    receiver.replies('/second', { status: 500 });
    first = await fx.webhook(`${receiver.url}/first`, { events: ['record.created'] });
    second = await fx.webhook(`${receiver.url}/second`, { events: ['record.created'] });
    dealId = (await fx.createDeal('Filtered deal')).id;
    const [toFirst] = await fx.deliveriesOf(first.id);
    const [toSecond] = await fx.deliveriesOf(second.id);
    await fx.finish(toFirst!.id);
    expect(await fx.finish(toSecond!.id)).toMatchObject({ status: 'failed' });
    delivered = toFirst!.id;
    failed = toSecond!.id;
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const ids = async (query: string, path = '/webhooks/deliveries') => {
    const answer = await fx.api('GET', `${path}?${query}`);
    expect(answer.status).toBe(200);
    return (answer.body.data as { id: string }[]).map((delivery) => delivery.id).sort();
  };

  it('filters by status, event, webhook and exact URL', async () => {
    expect(await ids('status=delivered')).toContain(delivered);
    expect(await ids('status=delivered')).not.toContain(failed);
    expect(await ids('status=failed')).toEqual([failed]);
    expect(await ids(`webhookId=${second.id}`)).toEqual([failed]);
    expect(await ids(`url=${encodeURIComponent(`${receiver.url}/first`)}`)).toEqual([delivered]);
    // Exact, not a substring: the search term is the fuzzy one.
    expect(await ids(`url=${encodeURIComponent(receiver.url)}`)).toEqual([]);
    expect(await ids('event=record.created')).toEqual([delivered, failed].sort());
    expect(await ids('event=record.updated')).toEqual([]);
    expect(await ids('status=delivered', `/webhooks/${second.id}/deliveries`)).toEqual([]);
  });

  it('filters by creation date, a date covering its whole day (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect(await ids(`createdFrom=${today}&createdTo=${today}`)).toEqual([delivered, failed].sort());
    expect(await ids(`createdFrom=${tomorrow}`)).toEqual([]);
    expect(await ids(`createdTo=2020-01-01T00:00:00Z`)).toEqual([]);
  });

  it('refuses unknown and ill-formed parameters with the validation body, instead of ignoring them', async () => {
    const unknown = await fx.api('GET', '/webhooks/deliveries?stauts=failed');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      kind: 'validation',
      issues: [expect.objectContaining({ customCode: 'unknownField' })],
    });
    const perWebhook = await fx.api('GET', `/webhooks/${first.id}/deliveries?webhookId=${second.id}`);
    expect(perWebhook.status).toBe(400);
    const badStatus = await fx.api('GET', '/webhooks/deliveries?status=done');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.error.issues[0]).toMatchObject({ path: ['status'] });
    const badDate = await fx.api('GET', '/webhooks/deliveries?createdFrom=yesterday');
    expect(badDate.status).toBe(400);
  });

  it('answers 404 for a webhook filter outside the workspace', async () => {
    const answer = await fx.api('GET', '/webhooks/deliveries?webhookId=00000000-0000-4000-8000-000000000000');
    expect(answer.status).toBe(404);
    expect(answer.body.error).toMatchObject({ kind: 'not_found' });
  });

  it('offers the same filters to list_deliveries over MCP', async () => {
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    try {
      const result = await mcp.call('manage_webhooks', {
        action: 'list_deliveries',
        status: 'failed',
        deliveryUrl: `${receiver.url}/second`,
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.data.map((delivery: { id: string }) => delivery.id)).toEqual([failed]);
    } finally {
      await mcp.client.close();
    }
  });

  it('filters by state: retrying (a next attempt scheduled) apart from failed for good; status=failed keeps both', async () => {
    // A third webhook's receiver keeps failing: nothing awaits its workflow, so time is not skipped
    // and its delivery waits 10 s, Failed and retrying, for its second attempt.
    receiver.replies('/third', { status: 503, statusText: 'Busy' });
    const third = await fx.webhook(`${receiver.url}/third`, { events: ['record.updated'] });
    await fx.api('PATCH', `/records/deal/${dealId}`, { values: { [fx.field('Name')]: 'Filtered deal (2)' } });
    const [toThird] = await fx.deliveriesOf(third.id);
    const deadline = Date.now() + 15_000;
    for (;;) {
      const row = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: toThird!.id });
      if (row.status === 'failed' && row.nextAttemptAt) break;
      if (Date.now() > deadline)
        throw new Error(`the delivery never failed its first attempt: ${row.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const retrying = toThird!.id;

    expect(await ids('state=retrying')).toEqual([retrying]);
    expect(await ids('state=failed')).toEqual([failed]);
    expect(await ids('status=failed')).toEqual([failed, retrying].sort());
    expect(await ids('status=failed&state=retrying')).toEqual([retrying]);
    expect(await ids('status=delivered&state=retrying')).toEqual([]);
    expect(await ids('state=delivered')).toContain(delivered);
    expect(await ids('state=retrying', `/webhooks/${third.id}/deliveries`)).toEqual([retrying]);
    expect(await ids('state=retrying', `/webhooks/${second.id}/deliveries`)).toEqual([]);
    const listed = (await fx.api('GET', `/webhooks/deliveries?state=retrying`)).body;
    expect(listed.total).toEqual({ count: 1, capped: false });
    expect(listed.data[0]).toMatchObject({
      status: 'failed',
      state: 'retrying',
      statusCode: 503,
      attempts: 1,
      nextAttemptAt: expect.any(String),
    });
    const forGood = (await fx.api('GET', `/webhooks/deliveries?state=failed`)).body.data[0];
    expect(forGood).toMatchObject({ id: failed, status: 'failed', state: 'failed', nextAttemptAt: null });
    const badState = await fx.api('GET', '/webhooks/deliveries?state=later');
    expect(badState.status).toBe(400);
    expect(badState.body.error.issues[0]).toMatchObject({ path: ['state'] });

    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    try {
      const byState = async (state: string) => {
        const result = await mcp.call('manage_webhooks', { action: 'list_deliveries', state });
        expect(result.isError).toBeFalsy();
        return result.structuredContent.data.map((delivery: { id: string; state: string }) => [
          delivery.id,
          delivery.state,
        ]);
      };
      expect(await byState('retrying')).toEqual([[retrying, 'retrying']]);
      expect(await byState('failed')).toEqual([[failed, 'failed']]);
      const reader = await connectMcp(fx.app.baseUrl, fx.key, { readOnly: true });
      try {
        const readOnly = await reader.call('list_deliveries', { state: 'retrying' });
        expect(readOnly.structuredContent.data.map((delivery: { id: string }) => delivery.id)).toEqual([
          retrying,
        ]);
      } finally {
        await reader.client.close();
      }
    } finally {
      await mcp.client.close();
    }
  });
});
