import { DeliveryAttempt } from '../../../src/deliveries/store/delivery-attempt.entity';
import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { deliveryWorkflowId } from '../../../workflows/delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { WebClient } from '../../helpers/web-client';

/**
 * Issue 27, item 1: Retry now over REST and MCP, against real delivery workflows on the
 * time-skipping server with a real receiver. Nothing here awaits a workflow's result while a
 * delivery should wait, so its 10 s pause runs in real time: an attempt that comes sooner was
 * brought forward. Each refused call is checked to change nothing: the row, the attempts, the
 * requests the receiver got.
 */
describe('Retry now (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const row = (id: string) => fx.app.dataSource.manager.findOneByOrFail(Delivery, { id });
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const requestsTo = (path: string) => receiver.received.filter((r) => r.path === `/${path}`);

  /** A webhook on its own path whose first attempt failed with 503: its delivery is retrying. */
  async function retrying(path: string, ...then: { status: number }[]) {
    receiver.replies(`/${path}`, { status: 503 }, ...then);
    const webhook = await fx.webhook(`${receiver.url}/${path}`, { events: ['record.created'] });
    await fx.createDeal(`Deal ${path}`);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await until('the first attempt failed', async () => (await row(delivery!.id)).nextAttemptAt !== null);
    return { webhook, delivery: await row(delivery!.id) };
  }
  const retryNow = (webhookId: string, deliveryId: string, key = fx.key) =>
    fx.api('POST', `/webhooks/${webhookId}/deliveries/${deliveryId}/retry-now`, undefined, key);
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body.error.kind,
    result.body.error.issues[0].customCode,
  ];
  /** What a refused call must leave as it was. */
  const snapshot = async (path: string, deliveryId: string) => ({
    delivery: await row(deliveryId),
    attempts: await fx.app.dataSource.manager.countBy(DeliveryAttempt, { deliveryId }),
    requests: requestsTo(path).length,
  });

  it('runs a retrying delivery’s next attempt now, in the same delivery, as the next of its ten', async () => {
    const { webhook, delivery } = await retrying('flaky', { status: 200 });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1 });
    const scheduled = delivery.nextAttemptAt!.getTime();
    expect(scheduled - Date.now()).toBeGreaterThan(5_000);
    // Counted as retrying, not failed, by the chart and the webhook's health.
    const counts = async () => ({
      totals: (await fx.api('GET', `/webhooks/deliveries/stats?webhookId=${webhook.id}`)).body.totals,
      health: (await fx.api('GET', `/webhooks/${webhook.id}`)).body.health,
    });
    const whileRetrying = await counts();
    expect(whileRetrying.totals).toEqual({
      delivered: 0,
      failed: 0,
      retrying: 1,
      inFlight: 0,
      successRate: null,
    });
    expect(whileRetrying.health).toMatchObject({
      lastDelivery: { status: 'failed', state: 'retrying' },
      last24h: { delivered: 0, failed: 0, retrying: 1, inFlight: 0, successRate: null },
    });

    const answer = await retryNow(webhook.id, delivery.id);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      id: delivery.id,
      status: expect.any(String),
      eventId: delivery.eventId,
    });
    // The record says the next attempt is now (unless it already opened and records itself).
    if (answer.body.state === 'retrying') {
      expect(new Date(answer.body.nextAttemptAt).getTime()).toBeLessThan(scheduled - 5_000);
    }

    await until('the second attempt delivered', async () => (await row(delivery.id)).status === 'delivered');
    expect(Date.now()).toBeLessThan(scheduled);
    expect(await row(delivery.id)).toMatchObject({ status: 'delivered', attempts: 2, nextAttemptAt: null });
    expect(await fx.app.dataSource.manager.countBy(Delivery, { webhookId: webhook.id })).toBe(1);
    expect((await counts()).totals).toEqual({
      delivered: 1,
      failed: 0,
      retrying: 0,
      inFlight: 0,
      successRate: 1,
    });
    const requests = requestsTo('flaky');
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id']))).toEqual(new Set([delivery.id]));
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${delivery.id}`)).body;
    expect(
      details.attemptHistory.map((a: { attempt: number; outcome: string }) => [a.attempt, a.outcome]),
    ).toEqual([
      [1, 'retry'],
      [2, 'delivered'],
    ]);

    // One workflow: its 10 s wait was started and cancelled, the Update accepted.
    expect(await fx.finish(delivery.id)).toEqual({ status: 'delivered', attempts: 2 });
    const history = await fx.app.env.client.workflow
      .getHandle(deliveryWorkflowId(delivery.id))
      .fetchHistory();
    const events = history.events ?? [];
    expect(events.filter((e) => e.timerStartedEventAttributes)).toHaveLength(1);
    expect(events.filter((e) => e.timerCanceledEventAttributes)).toHaveLength(1);
    expect(events.filter((e) => e.timerFiredEventAttributes)).toHaveLength(0);
    expect(events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);
  });

  /**
   * Issue 33, item 3: two calls back to back, each having read attempt 2 scheduled. One brings it
   * forward; it fails fast (503) and the delivery waits 20 s for attempt 3. The other must not end
   * that wait: it answers 409 `deliveryNotRetrying` and changes nothing, whether it reached the
   * workflow before attempt 2 ran (no wait to end) or after (attempt 3 is not the one it saw).
   */
  async function twoCallsBringOneForward(
    path: string,
    second: (webhookId: string, deliveryId: string) => Promise<{ status: number; failure: unknown }>,
  ) {
    const { webhook, delivery } = await retrying(path, { status: 503 }, { status: 200 });
    const first = retryNow(webhook.id, delivery.id).then((answer) => ({
      status: answer.status,
      failure: answer.body.error,
    }));
    const answers = await Promise.all([first, second(webhook.id, delivery.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    expect(answers.find((answer) => answer.status === 409)!.failure).toMatchObject({
      kind: 'conflict',
      issues: [{ customCode: 'deliveryNotRetrying' }],
    });

    await until('attempt 2 failed', async () => {
      const now = await row(delivery.id);
      return now.attempts === 2 && now.status === 'failed';
    });
    // Long enough for a second attempt brought forward to have reached the receiver.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await row(delivery.id);
    expect(after).toMatchObject({ status: 'failed', attempts: 2 });
    expect(after.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(15_000);
    expect(requestsTo(path)).toHaveLength(2);
    const history = await fx.app.env.client.workflow
      .getHandle(deliveryWorkflowId(delivery.id))
      .fetchHistory();
    expect(
      (history.events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes),
    ).toHaveLength(1);
  }

  it('brings one attempt forward for two REST calls back to back; the other is refused, changing nothing', async () => {
    await twoCallsBringOneForward('twice', (webhookId, deliveryId) =>
      retryNow(webhookId, deliveryId).then((answer) => ({
        status: answer.status,
        failure: answer.body.error,
      })),
    );
  });

  it('brings one attempt forward for a REST call and an MCP retry_delivery_now back to back', async () => {
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    try {
      await twoCallsBringOneForward('rest-and-mcp', async (_webhookId, deliveryId) => {
        const answer = await mcp.call('manage_webhooks', { action: 'retry_delivery_now', deliveryId });
        return { status: answer.isError ? 409 : 202, failure: answer._meta?.failure };
      });
    } finally {
      await mcp.client.close();
    }
  });

  it('refuses, changing nothing, unless the delivery is retrying', async () => {
    receiver.replies('/done', { status: 200 });
    const delivered = await fx.webhook(`${receiver.url}/done`, { events: ['record.created'] });
    receiver.replies('/gone', { status: 410 });
    const gone = await fx.webhook(`${receiver.url}/gone`, { events: ['record.created'] });
    await fx.createDeal('Deal for refusals');
    const [toDone] = await fx.deliveriesOf(delivered.id);
    const [toGone] = await fx.deliveriesOf(gone.id);
    await fx.finish(toDone!.id);
    await fx.finish(toGone!.id);

    const before = await snapshot('done', toDone!.id);
    const wasDelivered = await retryNow(delivered.id, toDone!.id);
    expect(refusal(wasDelivered)).toEqual([409, 'conflict', 'deliveryNotRetrying']);
    expect(await snapshot('done', toDone!.id)).toEqual(before);

    const forGood = await retryNow(gone.id, toGone!.id);
    expect(refusal(forGood)).toEqual([409, 'conflict', 'deliveryNotRetrying']);
    expect(forGood.body.error.issues[0].message).toMatch(/failed for good.*Resend/);

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(refusal(await retryNow(delivered.id, unknown))).toEqual([404, 'not_found', 'deliveryNotFound']);
    expect(refusal(await retryNow(unknown, toDone!.id))).toEqual([404, 'not_found', 'webhookNotFound']);
    // Another webhook of the workspace with this delivery: it is not that webhook's.
    expect(refusal(await retryNow(gone.id, toDone!.id))).toEqual([404, 'not_found', 'deliveryNotFound']);
  });

  it('needs Create on API & Webhooks, and for a record event the record owner or an administrator', async () => {
    const { webhook, delivery } = await retrying('roles', { status: 200 });
    const before = await snapshot('roles', delivery.id);
    const viewer = await fx.keyWithRole('viewer@example.com', 'Viewer');
    expect(refusal(await retryNow(webhook.id, delivery.id, viewer))).toEqual([
      403,
      'authorization',
      'insufficientPermissions',
    ]);
    const member = await fx.keyWithRole('member@example.com', 'Member');
    expect(refusal(await retryNow(webhook.id, delivery.id, member))).toEqual([
      403,
      'authorization',
      'deliveryResendNotOwner',
    ]);
    const mcp = await connectMcp(fx.app.baseUrl, member);
    try {
      const overMcp = await mcp.call('manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: delivery.id,
      });
      expect(overMcp.isError).toBe(true);
      expect(overMcp._meta!.failure).toMatchObject({
        kind: 'authorization',
        issues: [{ customCode: 'deliveryResendNotOwner' }],
      });
    } finally {
      await mcp.client.close();
    }
    expect(await snapshot('roles', delivery.id)).toEqual(before);

    // The Admin who owns the webhook may.
    expect((await retryNow(webhook.id, delivery.id)).status).toBe(202);
    await until('the second attempt delivered', async () => (await row(delivery.id)).status === 'delivered');
  });

  it('answers another workspace as if the delivery did not exist, on REST, the web app and MCP', async () => {
    const { webhook, delivery } = await retrying('private', { status: 200 });
    const b = await WebClient.signUp(fx.app.baseUrl, { email: 'attacker@example.com' });
    const bKey = (await b.client.ok('POST', '/app/api/api-keys', { name: 'b' })).value as string;
    const before = await snapshot('private', delivery.id);

    expect(refusal(await retryNow(webhook.id, delivery.id, bKey))).toEqual([
      404,
      'not_found',
      'webhookNotFound',
    ]);
    const web = await b.client.request<any>(
      'POST',
      `/app/api/webhooks/${webhook.id}/deliveries/${delivery.id}/retry-now`,
    );
    expect([web.status, web.body.error.issues[0].customCode]).toEqual([404, 'webhookNotFound']);
    const mcp = await connectMcp(fx.app.baseUrl, bKey);
    try {
      const overMcp = await mcp.call('manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: delivery.id,
      });
      expect(overMcp._meta!.failure).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'deliveryNotFound' }],
      });
    } finally {
      await mcp.client.close();
    }
    expect(await snapshot('private', delivery.id)).toEqual(before);
    expect((await row(delivery.id)).nextAttemptAt).toEqual(delivery.nextAttemptAt);
  });

  it('lets an assistant retry it now over MCP with the SDK client, and refuses a second one while that attempt runs or after', async () => {
    const { delivery } = await retrying('assistant', { status: 503 }, { status: 200 });
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    try {
      const tools = await mcp.client.listTools();
      const manage = tools.tools.find((tool) => tool.name === 'manage_webhooks')!;
      expect(JSON.stringify(manage.inputSchema)).toContain('retry_delivery_now');

      const listed = await mcp.call('manage_webhooks', { action: 'list_deliveries', state: 'retrying' });
      expect(listed.structuredContent.data.map((d: { id: string }) => d.id)).toContain(delivery.id);
      const answer = await mcp.call('manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: delivery.id,
      });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ id: delivery.id, eventId: delivery.eventId });

      // The second attempt answers 503 again: the delivery waits 20 s for its third.
      await until(
        'the second attempt failed',
        async () => (await row(delivery.id)).attempts === 2 && (await row(delivery.id)).status === 'failed',
      );
      const second = await row(delivery.id);
      expect(second.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(15_000);
      // …and can be brought forward again: the third attempt delivers, the delivery stays one row.
      const again = await mcp.call('manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: delivery.id,
      });
      expect(again.isError).toBeFalsy();
      await until('the third attempt delivered', async () => (await row(delivery.id)).status === 'delivered');
      expect(await row(delivery.id)).toMatchObject({ attempts: 3 });
      expect(requestsTo('assistant')).toHaveLength(3);

      const late = await mcp.call('manage_webhooks', {
        action: 'retry_delivery_now',
        deliveryId: delivery.id,
      });
      expect(late.isError).toBe(true);
      expect(late._meta!.failure).toMatchObject({
        kind: 'conflict',
        issues: [{ customCode: 'deliveryNotRetrying' }],
      });
      expect(late.content[0]!.text).toMatch(/delivered/);
    } finally {
      await mcp.client.close();
    }
  });
});
