import { randomUUID } from 'node:crypto';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { Receiver } from '../../helpers/receiver';
import { memberWithRole } from '../../helpers/web-client';

/**
 * Issue 13, "Name things as people know them" and the log's count: each delivery carries its
 * record's display name, read with the caller's current access, and the webhook it belongs to;
 * a list says how many deliveries its filters match.
 */
describe('delivery names, webhooks and counts', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let described: any;
  let plain: any;
  let deal: any;

  const list = async (query = '', key?: string) => {
    const answer = await fx.api('GET', `/webhooks/deliveries?${query}`, undefined, key);
    expect(answer.status).toBe(200);
    return answer.body as {
      data: any[];
      nextCursor: string | null;
      total: { count: number; capped: boolean };
    };
  };

  /** A member of the workspace with a role of their own, and their API key. */
  const memberWith = async (email: string, role: Record<string, unknown>) =>
    (await memberWithRole(fx.admin, fx.app.baseUrl, email, role)).key;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    described = await fx.webhook(`${receiver.url}/described`, { description: 'CRM sync' });
    plain = await fx.webhook(`${receiver.url}/plain`, { events: ['record.created'] });
    deal = await fx.createDeal('Acme renewal');
    // An update of another field: the delivery is still named by the record's name.
    const updated = await fx.api('PATCH', `/records/deal/${deal.id}`, {
      values: { [fx.field('Amount')]: 42 },
    });
    expect(updated.status).toBe(200);
    for (const row of await fx.deliveriesOf(described.id, 2)) await fx.finish(row.id);
    for (const row of await fx.deliveriesOf(plain.id)) await fx.finish(row.id);
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  it('names each delivery by its record’s name field (not the changed value) and by its webhook', async () => {
    const page = await list();
    expect(page.data).toHaveLength(3);
    for (const delivery of page.data) expect(delivery.elementName).toBe('Acme renewal');
    const update = page.data.find((delivery) => delivery.event === 'record.updated');
    expect(update.webhook).toEqual({ id: described.id, description: 'CRM sync', deleted: false });
    const toPlain = page.data.find((delivery) => delivery.webhookId === plain.id);
    expect(toPlain.webhook).toEqual({ id: plain.id, description: null, deleted: false });

    const details = await fx.api('GET', `/webhooks/${described.id}/deliveries/${update.id}`);
    expect(details.body).toMatchObject({
      elementName: 'Acme renewal',
      webhook: { id: described.id, description: 'CRM sync', deleted: false },
    });
  });

  it('shows the name only to whom the role lets read it: a hidden name field or type gives none', async () => {
    const nameHidden = await memberWith('noname@example.com', { restrictedFieldIds: [fx.field('Name')] });
    const typeHidden = await memberWith('nodeals@example.com', { recordAccess: { [fx.deal.id]: 'none' } });
    const amountHidden = await memberWith('noamount@example.com', {
      restrictedFieldIds: [fx.field('Amount')],
    });

    const hiddenName = await list('', nameHidden);
    expect(hiddenName.data).toHaveLength(3);
    for (const delivery of hiddenName.data) expect(delivery.elementName).toBeNull();
    expect(JSON.stringify(hiddenName)).not.toContain('Acme renewal');
    const one = hiddenName.data[0];
    const details = await fx.api(
      'GET',
      `/webhooks/${one.webhookId}/deliveries/${one.id}`,
      undefined,
      nameHidden,
    );
    expect(details.status).toBe(200);
    expect(details.body.elementName).toBeNull();

    const hiddenType = await list('', typeHidden);
    for (const delivery of hiddenType.data) expect(delivery.elementName).toBeNull();
    expect(JSON.stringify(hiddenType)).not.toContain('Acme renewal');

    // Another field hidden: the name stays readable.
    for (const delivery of (await list('', amountHidden)).data)
      expect(delivery.elementName).toBe('Acme renewal');
  });

  it('counts what the filters match across pages, not the page', async () => {
    const firstPage = await list('limit=1');
    expect(firstPage.data).toHaveLength(1);
    expect(firstPage.nextCursor).not.toBeNull();
    expect(firstPage.total).toEqual({ count: 3, capped: false });
    const secondPage = await list(`limit=1&cursor=${encodeURIComponent(firstPage.nextCursor!)}`);
    expect(secondPage.total).toEqual({ count: 3, capped: false });
    expect((await list('event=record.updated')).total).toEqual({ count: 1, capped: false });
    expect((await list(`webhookId=${plain.id}`)).total).toEqual({ count: 1, capped: false });
    expect((await list('status=failed')).total).toEqual({ count: 0, capped: false });
    const perWebhook = await fx.api('GET', `/webhooks/${described.id}/deliveries`);
    expect(perWebhook.body.total).toEqual({ count: 2, capped: false });
  });

  it('says a deleted webhook is deleted, and an erased record has no name', async () => {
    const trashed = await fx.api('POST', `/records/deal/${deal.id}/trash`);
    expect(trashed.status).toBe(200);
    expect((await list(`webhookId=${plain.id}`)).data[0].elementName).toBe('Acme renewal');
    expect((await fx.api('DELETE', `/records/deal/${deal.id}`)).status).toBe(204);
    expect((await fx.api('DELETE', `/webhooks/${plain.id}`)).status).toBe(204);

    const toPlain = (await list(`webhookId=${plain.id}`)).data[0];
    expect(toPlain.webhook).toEqual({ id: plain.id, description: null, deleted: true });
    for (const delivery of (await list()).data) expect(delivery.elementName).toBeNull();
  });

  it('caps the count at 1,000 and says there are more', async () => {
    const bulkUrl = 'https://bulk.example.com/hook';
    await fx.app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, trigger, status, attempts, workflow_started_at)
       SELECT workspace_id, id, gen_random_uuid(), 'record.created', $2, 'event', 'delivered', 1, now()
         FROM webhooks, generate_series(1, 1001) WHERE id = $1`,
      [described.id, bulkUrl],
    );
    const bulk = await list(`url=${encodeURIComponent(bulkUrl)}&limit=5`);
    expect(bulk.data).toHaveLength(5);
    expect(bulk.total).toEqual({ count: 1_000, capped: true });
    expect((await list(`url=${encodeURIComponent(`${bulkUrl}?none=${randomUUID()}`)}`)).total).toEqual({
      count: 0,
      capped: false,
    });
  });
});
