import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { WebClient } from '../../helpers/web-client';

const OPERATIONAL = ['webhook.endpoint.failing', 'webhook.endpoint.disabled', 'webhook.delivery.exhausted'];
const OPS_SECRET = 'operational-receiver-secret';
const ADMIN_EMAIL = 'deliveries@example.com';

/**
 * Issue 37, item 1, from the user's side: an endpoint that keeps failing is announced to its
 * owner and the Admins (a notice in the app, an e-mail read from the real mail catcher, an
 * operational event received and verified by another webhook), disabled after the configured
 * period (2 s here) or at once on a 410, says why and since when, and is re-enabled by one PATCH.
 * Real worker, time-skipping Temporal server (a delivery's retries run at once while awaited),
 * receivers on loopback.
 */
describe('a failing endpoint: notices, e-mail, operational events and auto-disable', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let ops: Receiver;
  let opsWebhookId: string;

  beforeAll(async () => {
    fx = await deliveryFixture({ WEBHOOK_AUTO_DISABLE_AFTER_SECONDS: '2' });
    receiver = await new Receiver().start();
    ops = await new Receiver(OPS_SECRET).start();
    const opsWebhook = await fx.webhook(`${ops.url}/ops`, {
      events: ['messaging.chat.deleted'],
      operationalEvents: OPERATIONAL,
      secret: OPS_SECRET,
    });
    opsWebhookId = opsWebhook.id;
  });
  afterAll(async () => {
    await receiver?.stop();
    await ops?.stop();
    await fx?.close();
  });

  const webhookOf = async (id: string, key = fx.key) =>
    (await fx.api('GET', `/webhooks/${id}`, undefined, key)).body;
  const noticesOf = async (key = fx.key) => {
    const listed = await fx.api('GET', '/notices', undefined, key);
    expect(listed.status).toBe(200);
    return listed.body.data as {
      id: string;
      kind: string;
      webhookId: string;
      title: string;
      message: string;
    }[];
  };
  const opsEvents = (aboutId: string) =>
    ops.received.filter((request) => request.json?.data?.webhook?.id === aboutId);

  it('fails for the period: Failing announced, then disabled with why and since when; notices, e-mails and operational events arrive; re-enable clears it', async () => {
    // 400 is not retried: each record event is one attempt, so the endpoint turns Failing with the
    // third and no attempt follows until the test makes one (the period starts there).
    receiver.replies('/dead', { status: 400, statusText: 'Bad Request' });
    // It subscribes to the operational events too: none about itself may reach it.
    const dead = await fx.webhook(`${receiver.url}/dead`, {
      events: ['record.created'],
      operationalEvents: OPERATIONAL,
    });
    for (const name of ['Dead 1', 'Dead 2', 'Dead 3']) await fx.createDeal(name);
    const firstThree = await fx.deliveriesOf(dead.id, 3);
    for (const delivery of firstThree)
      await expect(fx.finish(delivery.id)).resolves.toEqual({ status: 'failed', attempts: 1 });
    await eventually(async () => (await webhookOf(dead.id)).health.endpoint?.state === 'failing', 'Failing');

    // The owner (here the Admin who made it) is told once, in the app and by e-mail.
    await eventually(
      async () => (await noticesOf()).some((n) => n.webhookId === dead.id),
      'the failing notice',
    );
    const failingMail = await fx.app.mail.waitForMessage({ to: ADMIN_EMAIL, subject: /^Webhook failing: / });
    expect(failingMail.Text).toContain(`${receiver.url}/dead`);
    expect(failingMail.Text).toContain('400 Bad Request');
    expect(failingMail.Text).toContain('2 seconds');

    // Still Failing once the period has passed: the next attempt that fails disables it.
    expect((await webhookOf(dead.id)).enabled).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await fx.createDeal('Dead 4');
    await eventually(async () => !(await webhookOf(dead.id)).enabled, 'the service disabled it', 30_000);
    const disabled = await webhookOf(dead.id);
    expect(disabled.disabledReason).toMatch(
      /^Every attempt failed for 2 seconds \(Failing since .+; latest: 400 Bad Request\)\.$/,
    );
    expect(Date.parse(disabled.disabledAt)).toBeLessThanOrEqual(Date.now());

    const notices = (await noticesOf()).filter((n) => n.webhookId === dead.id);
    expect(notices.map((n) => n.kind).sort()).toEqual(['endpoint.disabled', 'endpoint.failing']);
    const disabledMail = await fx.app.mail.waitForMessage({
      to: ADMIN_EMAIL,
      subject: /^Webhook disabled: /,
    });
    expect(disabledMail.Text).toContain(disabled.disabledReason);
    expect(disabledMail.Text).toContain(`${fx.app.baseUrl}/webhooks`);

    // Another webhook received each operational event, signed with its own secret. Waited for one
    // by one: the disabling attempt's exhausted event may arrive before its disabled event, so a
    // total alone would be reached with the disabled event still on its way.
    const countOf = (event: string) =>
      opsEvents(dead.id).filter((request) => request.json.event === event).length;
    await eventually(
      async () =>
        countOf('webhook.endpoint.failing') >= 1 &&
        countOf('webhook.endpoint.disabled') >= 1 &&
        countOf('webhook.delivery.exhausted') >= 3,
      'the operational events about it',
      30_000,
    );
    const about = opsEvents(dead.id);
    const count = (event: string) => about.filter((request) => request.json.event === event).length;
    expect(count('webhook.endpoint.failing')).toBe(1);
    expect(count('webhook.endpoint.disabled')).toBe(1);
    expect(count('webhook.delivery.exhausted')).toBeGreaterThanOrEqual(3);
    for (const request of about) {
      expect(request.signatureValid).toBe(true);
      expect(request.json).toMatchObject({ companyId: expect.any(String), actorId: null });
    }
    const disabledEvent = about.find((request) => request.json.event === 'webhook.endpoint.disabled')!;
    expect(disabledEvent.json.data.disabled).toEqual({
      reason: disabled.disabledReason,
      at: disabled.disabledAt,
      gone: false,
    });
    const exhausted = about.filter((request) => request.json.event === 'webhook.delivery.exhausted');
    expect(exhausted.map((request) => request.json.data.delivery.id)).toEqual(
      expect.arrayContaining(firstThree.map((delivery) => delivery.id)),
    );
    expect(exhausted[0]!.json.data.delivery).toMatchObject({
      event: 'record.created',
      attempts: 1,
      statusCode: 400,
    });
    // Logged like any delivery, in the ops webhook's log (its answer is recorded after the
    // receiver has it).
    const logOf = async () =>
      (await fx.api('GET', `/webhooks/${opsWebhookId}/deliveries?event=webhook.endpoint.disabled`)).body
        .data as { status: string; event: string }[];
    await eventually(async () => (await logOf())[0]?.status === 'delivered', 'the log says delivered');
    expect(await logOf()).toEqual([
      expect.objectContaining({ status: 'delivered', event: 'webhook.endpoint.disabled' }),
    ]);
    // Never about itself to itself.
    expect(
      receiver.received.filter(
        (request) => request.path === '/dead' && request.json?.event?.startsWith('webhook.'),
      ),
    ).toEqual([]);

    // Re-enabled by hand: why and since when are cleared, and so is the endpoint's state.
    receiver.replies('/dead', { status: 200 });
    const enabled = await fx.api('PATCH', `/webhooks/${dead.id}`, { enabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    expect((await webhookOf(dead.id)).health.endpoint).toBeNull();
    await fx.createDeal('Back again');
    await eventually(
      async () => (await webhookOf(dead.id)).health.endpoint?.state === 'healthy',
      'its next delivery arrives',
      30_000,
    );
    expect((await webhookOf(dead.id)).enabled).toBe(true);

    // A notice is dismissed by its reader, and then no longer listed.
    const notice = notices.find((n) => n.kind === 'endpoint.disabled')!;
    const dismissed = await fx.api('POST', `/notices/${notice.id}/dismiss`);
    expect(dismissed.status).toBe(200);
    // It answers the reader's notices still open: the failing one, not this one.
    expect(dismissed.body.data.map((n: { id: string }) => n.id)).not.toContain(notice.id);
    expect(dismissed.body.data.map((n: { kind: string }) => n.kind)).toContain('endpoint.failing');
    expect((await noticesOf()).map((n) => n.id)).not.toContain(notice.id);
  });

  it('a 410 Gone disables at once, on the first attempt; a 404 does not', async () => {
    receiver.replies('/gone', { status: 410, statusText: 'Gone' });
    receiver.replies('/missing', { status: 404, statusText: 'Not Found' });
    const gone = await fx.webhook(`${receiver.url}/gone`, { events: ['messaging.chat.updated'] });
    const missing = await fx.webhook(`${receiver.url}/missing`, { events: ['messaging.chat.updated'] });
    for (const hook of [gone, missing]) {
      const sent = await fx.api('POST', `/webhooks/${hook.id}/test`, { event: 'messaging.chat.updated' });
      expect(sent.status).toBe(201);
      await expect(fx.finish(sent.body.id)).resolves.toMatchObject({ status: 'failed', attempts: 1 });
    }
    await eventually(async () => !(await webhookOf(gone.id)).enabled, 'the 410 disabled it');
    expect((await webhookOf(gone.id)).disabledReason).toBe(
      'The endpoint answered 410 Gone: the receiver says this address takes no more deliveries.',
    );
    expect(receiver.received.filter((request) => request.path === '/gone')).toHaveLength(1);
    await fx.app.mail.waitForMessage({ to: ADMIN_EMAIL, subject: `Webhook disabled: ${receiver.url}/gone` });
    await eventually(
      async () => opsEvents(gone.id).some((request) => request.json.event === 'webhook.endpoint.disabled'),
      'the operational event',
    );
    expect(
      opsEvents(gone.id).find((r) => r.json.event === 'webhook.endpoint.disabled')!.json.data.disabled.gone,
    ).toBe(true);
    // A test delivery that failed for good is no news: no webhook.delivery.exhausted about it.
    expect(opsEvents(gone.id).map((request) => request.json.event)).toEqual(['webhook.endpoint.disabled']);

    const notMissing = await webhookOf(missing.id);
    expect(notMissing).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
  });

  it('notices from the attacker’s side: a Member who is not the owner gets none of them, and another workspace can neither read nor dismiss them', async () => {
    // A Member's own webhook: the Member and the Admin are told, another Member is not.
    const ownerKey = await fx.keyWithRole('owner-member@example.com', 'Member');
    const otherKey = await fx.keyWithRole('other-member@example.com', 'Member');
    receiver.replies('/members-gone', { status: 410 });
    const created = await fx.api(
      'POST',
      '/webhooks',
      { url: `${receiver.url}/members-gone`, events: ['messaging.chat.updated'] },
      ownerKey,
    );
    expect(created.status).toBe(201);
    const sent = await fx.api(
      'POST',
      `/webhooks/${created.body.id}/test`,
      { event: 'messaging.chat.updated' },
      ownerKey,
    );
    await fx.finish(sent.body.id);
    await eventually(async () => (await noticesOf(ownerKey)).length > 0, "the owner's notice");
    const ownersNotice = (await noticesOf(ownerKey))[0]!;
    expect(ownersNotice).toMatchObject({ kind: 'endpoint.disabled', webhookId: created.body.id });
    expect((await noticesOf()).some((n) => n.webhookId === created.body.id)).toBe(true);
    await fx.app.mail.waitForMessage({ to: 'owner-member@example.com', subject: /^Webhook disabled: / });

    expect(await noticesOf(otherKey)).toEqual([]);
    const theirDismiss = await fx.api('POST', `/notices/${ownersNotice.id}/dismiss`, undefined, otherKey);
    expect(theirDismiss.status).toBe(404);
    expect(theirDismiss.body.error.issues[0].customCode).toBe('noticeNotFound');

    const stranger = await WebClient.signUp(fx.app.baseUrl, { email: 'notices-stranger@example.com' });
    const strangerKey = (await stranger.client.ok('POST', '/app/api/api-keys', { name: 'k' }))
      .value as string;
    expect(await noticesOf(strangerKey)).toEqual([]);
    const strangerDismiss = await fx.api(
      'POST',
      `/notices/${ownersNotice.id}/dismiss`,
      undefined,
      strangerKey,
    );
    expect(strangerDismiss.status).toBe(404);
    expect(strangerDismiss.body.error.issues[0].customCode).toBe('noticeNotFound');
    const mcp = await connectMcp(fx.app.baseUrl, strangerKey);
    try {
      await mcp.client.listTools();
      const listed = await mcp.call('manage_webhooks', { action: 'list_notices' });
      expect(listed.structuredContent).toEqual({ data: [] });
      const refused = await mcp.call('manage_webhooks', {
        action: 'dismiss_notice',
        noticeId: ownersNotice.id,
      });
      expect(refused.isError).toBe(true);
      expect(refused._meta!.failure).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'noticeNotFound' }],
      });
    } finally {
      await mcp.client.close();
    }
    // Still there for its reader, who reads and dismisses it over MCP.
    const own = await connectMcp(fx.app.baseUrl, ownerKey);
    try {
      await own.client.listTools();
      const listed = await own.call('manage_webhooks', { action: 'list_notices' });
      expect(listed.structuredContent.data.map((n: { id: string }) => n.id)).toContain(ownersNotice.id);
      const done = await own.call('manage_webhooks', { action: 'dismiss_notice', noticeId: ownersNotice.id });
      expect(done.structuredContent.data.map((n: { id: string }) => n.id)).not.toContain(ownersNotice.id);
    } finally {
      await own.client.close();
    }
  });
});
