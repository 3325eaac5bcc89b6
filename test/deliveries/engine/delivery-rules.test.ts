import { createLogger } from '../../../src/logger';
import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { Dispatcher } from '../../../src/deliveries/engine/dispatcher';
import { TemporalDeliveryStarter } from '../../../src/deliveries/engine/workflow-starter';
import { RecordEvent } from '../../../src/records/record-event.entity';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { Receiver } from '../../helpers/receiver';
import { memberWithRole } from '../../helpers/web-client';

/**
 * docs/deliveries.md#what-a-receiver-gets, docs/api.md#url-and-transport (checked again before each
 * delivery), and docs/deliveries.md#guarantees.
 */
/**
 * These tests dispatch an event again by hand. Earlier tests' webhooks would also receive it, and
 * their sends lock the event (key share, startSend) while the hand dispatch locks it for update:
 * the dispatch would skip it or deadlock. The product never meets this: an event is dispatched
 * once, in the transaction that inserts its deliveries, and only then can a send lock it.
 */
const onlyNewWebhooksReceive = (fx: DeliveryFixture) =>
  fx.app.dataSource.query(`UPDATE webhooks SET enabled = false`);

describe('delivery rules (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver('sig-secret').start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);

  it('sends the standard envelope, signed over the exact bytes, with the service headers', async () => {
    const webhook = await fx.webhook(`${receiver.url}/envelope`, {
      secret: 'sig-secret',
      headers: { 'X-Team': 'crm' },
    });
    const record = await fx.createDeal('Envelope deal', { [fx.field('Amount')]: 42 });
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(delivery!.id)).toEqual({ status: 'delivered', attempts: 1 });
    const [request] = requestsTo('/envelope');
    expect(request!.signatureValid).toBe(true);
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-delivery-id': delivery!.id,
      'x-team': 'crm',
      'x-webhook-signature': expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(request!.json).toMatchObject({
      event: 'record.created',
      id: delivery!.eventId,
      companyId: expect.any(String),
      actorId: fx.userId,
      timestamp: expect.any(String),
      data: { record: { ref: { typeId: fx.deal.id, recordId: record.id }, afterVersion: 1 } },
    });
    expect(Object.keys(request!.json)).toEqual(['event', 'id', 'timestamp', 'companyId', 'actorId', 'data']);
  });

  it('renders a body template, signing the rendered body', async () => {
    const webhook = await fx.webhook(`${receiver.url}/template`, {
      secret: 'sig-secret',
      bodyTemplate:
        '{"kind":"{{event}}","deal":"{{data.record.ref.recordId}}","missing":"{{data.nothing.here}}"}',
    });
    const record = await fx.createDeal('Template "quoted" deal');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await fx.finish(delivery!.id);
    const [request] = requestsTo('/template');
    expect(request!.json).toEqual({ kind: 'record.created', deal: record.id, missing: '' });
    expect(request!.signatureValid).toBe(true);
  });

  it('fails with 422, unsent and not retried, when the rendered body is too large', async () => {
    const notes = (await fx.api('POST', '/model/read', { type: 'contact' })).body.type.fields.find(
      (f: { name: string }) => f.name === 'Notes',
    );
    const webhook = await fx.webhook(`${receiver.url}/too-large`, {
      events: ['record.created'],
      bodyTemplate: '{"a":"{{data}}","b":"{{data}}"}',
    });
    const text = 'x'.repeat(9_000);
    const paragraphs = Array.from({ length: 10 }, () => ({
      type: 'paragraph',
      content: [{ type: 'text', text }],
    }));
    const created = await fx.api('POST', '/records/contact', {
      values: { [notes.id]: { documentJson: { type: 'doc', content: paragraphs } } },
    });
    expect(created.status).toBe(201);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(delivery!.id)).toEqual({ status: 'failed', attempts: 1 });
    const row = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery!.id });
    expect(row).toMatchObject({ status: 'failed', statusCode: 422, attempts: 1 });
    expect(row.responseMessage).toMatch(/131072/);
    expect(requestsTo('/too-large')).toHaveLength(0);
  });

  it('fails with 422, unsent, when headers would go to an address that does not allow them', async () => {
    const webhook = await fx.webhook(`${receiver.url}/transport`, { headers: { 'X-Key': 'k' } });
    // A URL saved before the rule tightened: plain http on another host, with headers.
    await fx.app.dataSource.query(`UPDATE webhooks SET url = 'http://example.invalid/hook' WHERE id = $1`, [
      webhook.id,
    ]);
    await fx.createDeal('Transport deal');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(delivery!.id)).toEqual({ status: 'failed', attempts: 1 });
    expect(await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery!.id })).toMatchObject({
      statusCode: 422,
      responseMessage: expect.stringMatching(/https/),
    });
  });

  it('stops retrying, unsent, when the webhook is disabled between attempts', async () => {
    receiver.replies('/disabled', { status: 500 });
    const webhook = await fx.webhook(`${receiver.url}/disabled`);
    await fx.createDeal('Disabled deal');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    const deadline = Date.now() + 10_000;
    while (requestsTo('/disabled').length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await fx.api('PATCH', `/webhooks/${webhook.id}`, { enabled: false });
    const result = await fx.finish(delivery!.id);
    expect(result.status).toBe('failed');
    const row = await fx.app.dataSource.manager.findOneByOrFail(Delivery, { id: delivery!.id });
    expect(row.responseMessage).toMatch(/disabled/);
    expect(requestsTo('/disabled').length).toBe(result.attempts - 1);
  });

  it('delivers a committed write even when the dispatcher stopped before starting its workflow', async () => {
    await onlyNewWebhooksReceive(fx);
    const webhook = await fx.webhook(`${receiver.url}/recovered`);
    // The write's own dispatch runs while the webhook is disabled, so it makes nothing for it; once
    // that pass has marked the event dispatched, no other dispatcher touches the event again.
    await fx.api('PATCH', `/webhooks/${webhook.id}`, { enabled: false });
    const record = await fx.createDeal('Recovered deal');
    const deadline = Date.now() + 10_000;
    while (
      (
        await fx.app.dataSource.query(
          `SELECT 1 FROM record_events WHERE record_id = $1 AND dispatched_at IS NULL`,
          [record.id],
        )
      ).length
    ) {
      if (Date.now() > deadline) throw new Error('the write was never dispatched');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await fx.api('PATCH', `/webhooks/${webhook.id}`, { enabled: true });
    // Simulate a crash between commit and workflow start: this dispatcher cannot start workflows.
    const logger = createLogger('silent');
    const broken = new Dispatcher(
      fx.app.dataSource,
      { startDelivery: () => Promise.reject(new Error('Temporal is away')) },
      logger,
    );
    await fx.app.dataSource.query(`UPDATE record_events SET dispatched_at = NULL WHERE record_id = $1`, [
      record.id,
    ]);
    const made = await broken.dispatchPending();
    expect(made.map((d) => d.webhookId)).toContain(webhook.id);
    const [stranded] = await fx.deliveriesOf(webhook.id);
    expect(stranded!.workflowStartedAt).toBeNull();

    const sweeper = new Dispatcher(
      fx.app.dataSource,
      new TemporalDeliveryStarter(fx.app.env.client, fx.app.taskQueue),
      logger,
    );
    expect(await sweeper.sweep(0)).toBeGreaterThanOrEqual(1);
    expect(await fx.finish(stranded!.id)).toEqual({ status: 'delivered', attempts: 1 });
    expect(requestsTo('/recovered').map((r) => r.json.data.record.ref.recordId)).toEqual([record.id]);
  });

  it('commits a write with its deliveries: the delivery exists when the write answers, its event dispatched', async () => {
    const webhook = await fx.webhook(`${receiver.url}/with-write`);
    const record = await fx.createDeal('With-write deal');
    // No waiting: the write's transaction matched the webhook and inserted the delivery.
    const rows: { dispatched_at: Date | null; deliveries: string }[] = await fx.app.dataSource.query(
      `SELECT e.dispatched_at, count(d.id) AS deliveries FROM record_events e
         LEFT JOIN deliveries d ON d.event_id = e.id AND d.webhook_id = $2
        WHERE e.record_id = $1 GROUP BY e.id`,
      [record.id, webhook.id],
    );
    expect(rows).toEqual([{ dispatched_at: expect.any(Date), deliveries: '1' }]);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    expect(await fx.finish(delivery!.id)).toEqual({ status: 'delivered', attempts: 1 });
  });

  it('dispatches every event once: a second dispatch of the same events adds no delivery', async () => {
    await onlyNewWebhooksReceive(fx);
    const webhook = await fx.webhook(`${receiver.url}/once`);
    const record = await fx.createDeal('Once deal');
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await fx.finish(delivery!.id);
    await fx.app.dataSource.manager.update(RecordEvent, { recordId: record.id }, { dispatchedAt: null });
    await new Dispatcher(
      fx.app.dataSource,
      { startDelivery: async () => undefined },
      createLogger('silent'),
    ).dispatchPending();
    expect(await fx.app.dataSource.manager.countBy(Delivery, { webhookId: webhook.id })).toBe(1);
  });

  it('keeps deliveries of a deleted webhook, lists newest first and searches URL and event name', async () => {
    const webhook = await fx.webhook(`${receiver.url}/kept`, {
      events: ['record.created', 'record.updated'],
    });
    const record = await fx.createDeal('Kept deal');
    await fx.api('PATCH', `/records/deal/${record.id}`, { values: { [fx.field('Amount')]: 7 } });
    const rows = await fx.deliveriesOf(webhook.id, 2);
    for (const row of rows) await fx.finish(row.id);
    expect((await fx.api('DELETE', `/webhooks/${webhook.id}`)).status).toBe(204);

    const own = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries`)).body.data;
    expect(own.map((d: { event: string }) => d.event)).toEqual(['record.updated', 'record.created']);
    const byEvent = (await fx.api('GET', `/webhooks/deliveries?searchTerm=record.updated`)).body.data;
    expect(byEvent.map((d: { id: string }) => d.id)).toContain(own[0].id);
    expect(byEvent.every((d: { event: string }) => d.event === 'record.updated')).toBe(true);
    const byUrl = (await fx.api('GET', `/webhooks/deliveries?searchTerm=${encodeURIComponent('/kept')}`)).body
      .data;
    expect(byUrl).toHaveLength(2);
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${own[0].id}`)).body;
    expect(details.payload).toMatchObject({ record: { ref: { recordId: record.id } } });
    expect(details.attemptHistory).toHaveLength(1);
  });

  it('delivers an update of only fields its record owner cannot read, restricted on both sides (issue 33, item 1)', async () => {
    const amount = fx.field('Amount');
    const weighted = fx.field('Weighted amount');
    const owner = await memberWithRole(fx.admin, fx.app.baseUrl, 'hides-amount@example.com', {
      restrictedFieldIds: [amount],
    });
    const hidden = await fx.webhook(`${receiver.url}/owner-hides-amount`, {
      recordOwnerUserId: owner.userId,
    });
    const control = await fx.webhook(`${receiver.url}/owner-reads-all`);
    const countOf = (webhookId: string) => fx.app.dataSource.manager.countBy(Delivery, { webhookId });

    // created arrives, redacted.
    const record = await fx.createDeal('Hidden change deal', {
      [amount]: 100,
      [fx.field('Probability')]: 50,
    });
    const [created] = await fx.deliveriesOf(hidden.id);
    expect(await fx.finish(created!.id)).toEqual({ status: 'delivered', attempts: 1 });

    // Amount alone (and Weighted amount, computed from it): the owner reads neither, and still gets the update.
    const secret = 31337;
    const amountOnly = await fx.api('PATCH', `/records/deal/${record.id}`, { values: { [amount]: secret } });
    expect(amountOnly.status).toBe(200);
    const changed = amountOnly.body.values;
    expect(changed[weighted]).toMatchObject({ value: secret / 2 });
    // Matched in the write's own transaction: both webhooks have their delivery.
    await fx.deliveriesOf(control.id, 2);
    expect([await countOf(hidden.id), await countOf(control.id)]).toEqual([2, 2]);
    const hiddenOnly = (await fx.deliveriesOf(hidden.id, 2))[1]!;
    expect(hiddenOnly.event).toBe('record.updated');
    expect(await fx.finish(hiddenOnly.id)).toEqual({ status: 'delivered', attempts: 1 });
    const restricted = { state: 'restricted' };
    const [, update] = requestsTo('/owner-hides-amount');
    expect(update!.json.data.record.fields).toEqual([
      expect.objectContaining({ fieldId: amount, before: restricted, after: restricted }),
      expect.objectContaining({ fieldId: weighted, before: restricted, after: restricted }),
    ]);

    // A change the owner can read arrives, with Amount still redacted.
    await fx.api('PATCH', `/records/deal/${record.id}`, { values: { [fx.field('Name')]: 'Renamed deal' } });
    const rows = await fx.deliveriesOf(hidden.id, 3);
    expect(rows.map((row) => row.event)).toEqual(['record.created', 'record.updated', 'record.updated']);
    expect(await fx.finish(rows[2]!.id)).toEqual({ status: 'delivered', attempts: 1 });
    const sent = requestsTo('/owner-hides-amount');
    expect(sent.map((request) => request.json.event)).toEqual([
      'record.created',
      'record.updated',
      'record.updated',
    ]);
    const fields = sent[2]!.json.data.record.fields as { fieldId: string }[];
    expect(fields.map((field) => field.fieldId)).toEqual([fx.field('Name')]);
    expect(sent.map((request) => request.rawBody.toString()).join('\n')).not.toContain(String(secret));
  });
});
