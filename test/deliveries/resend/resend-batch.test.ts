import { ApiKeyAuthenticator } from '../../../src/api-keys/api-key-auth';
import { OAuthTokenAuthenticator } from '../../../src/oauth/oauth-token-auth';
import { DeliveriesService } from '../../../src/deliveries/log/deliveries.service';
import { Delivery } from '../../../src/deliveries/store/delivery.entity';
import { ResendBatch, ResendBatchResult } from '../../../src/deliveries/store/resend-batch.entity';
import { ResendBatchSteps } from '../../../src/deliveries/resend/resend-batch-steps';
import { ResendBatchesService } from '../../../src/deliveries/resend/resend-batches.service';
import { loadActor } from '../../../src/identity/actor';
import { createLogger } from '../../../src/logger';
import { RESEND_BATCH_MAX } from '../../../src/shared/limits';
import { type resendFailedWorkflow, resendFailedWorkflowId } from '../../../workflows/resend-failed.workflow';
import { deliveryFixture, type DeliveryFixture } from '../../helpers/delivery-fixture';
import { eventually } from '../../helpers/eventually';
import { mostInFlight } from '../../helpers/temporal';
import { connectMcp } from '../../helpers/mcp';
import { Receiver } from '../../helpers/receiver';
import { addMemberByInvitation, WebClient } from '../../helpers/web-client';

const HOUR = 60 * 60 * 1000;

/** "Resend failed since …" (docs/deliveries.md): a bounded batch of resends run by a workflow. */
/** The batch steps recheck a connection without the authorization server. */
const noOAuthServer = (): never => {
  throw new Error('no OAuth server in this test');
};

describe('resend failed since (time skipping)', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let workspaceId: string;

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
    workspaceId = (await fx.api('GET', '/me')).body.workspace.id;
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  const manager = () => fx.app.dataSource.manager;
  const since = (hoursAgo: number) => new Date(Date.now() - hoursAgo * HOUR).toISOString();
  const startBatch = (webhookId: string, body: unknown, key = fx.key) =>
    fx.api('POST', `/webhooks/${webhookId}/resend-failed`, body, key);
  const readBatch = (webhookId: string, batchId: string, key = fx.key) =>
    fx.api('GET', `/webhooks/${webhookId}/resend-batches/${batchId}`, undefined, key);
  const completed = async (webhookId: string, batchId: string, timeoutMs?: number) => {
    let body: any;
    await eventually(
      async () => {
        body = (await readBatch(webhookId, batchId)).body;
        return body.status === 'completed';
      },
      `batch ${batchId} completed`,
      timeoutMs,
    );
    return body;
  };
  const refusal = (result: { status: number; body: any }) => [
    result.status,
    result.body.error.issues[0].customCode,
  ];
  const resendsOf = (deliveryIds: string[]) =>
    manager()
      .createQueryBuilder(Delivery, 'd')
      .where('d.resend_of IN (:...ids)', { ids: deliveryIds })
      .getMany();
  /** Creates a deal and waits until the webhook's delivery of it has finished. */
  const failedOrDelivered = async (webhookId: string, count: number) => {
    await fx.createDeal(`Deal ${webhookId.slice(0, 4)}-${count}`);
    const rows = await fx.deliveriesOf(webhookId, count);
    const latest = rows[count - 1]!;
    await fx.finish(latest.id);
    return manager().findOneByOrFail(Delivery, { id: latest.id });
  };
  /** A service whose batches start no workflow: the steps are run by hand. */
  const unstartedBatches = () =>
    new ResendBatchesService(
      fx.app.dataSource,
      { startResendBatch: async () => undefined },
      createLogger('silent'),
    );
  const steps = () =>
    new ResendBatchSteps(
      fx.app.dataSource,
      new DeliveriesService(
        fx.app.dataSource,
        { startResend: async () => undefined },
        () => null,
        createLogger('silent'),
      ),
      new ApiKeyAuthenticator(fx.app.dataSource, { DEPLOYMENT: 'self-hosted' }),
      new OAuthTokenAuthenticator(noOAuthServer, fx.app.dataSource, {
        DEPLOYMENT: 'self-hosted',
        PUBLIC_URL: fx.app.baseUrl,
      }),
    );
  const admin = async () => (await loadActor(manager(), workspaceId, fx.userId))!;
  /** The web app's preview of a batch since then (`/app/api` only). */
  const preview = (webhookId: string, query: string, client = fx.admin) =>
    client.request<any>('GET', `/app/api/webhooks/${webhookId}/resend-failed/preview?${query}`);
  const sinceQuery = (hoursAgo: number) => `since=${encodeURIComponent(since(hoursAgo))}`;

  /** A member with their own API key, then given `role`. */
  const memberWithKey = async (email: string, role: string) => {
    const roles = (await fx.admin.ok('GET', '/app/api/roles')).data;
    const byName = (name: string) => roles.find((r: { name: string }) => r.name === name).id;
    const added = await addMemberByInvitation(fx.app.baseUrl, fx.admin, { email, roleId: byName('Member') });
    const created = await added.client.ok('POST', '/app/api/api-keys', { name: 'k' });
    await fx.admin.ok('PATCH', `/app/api/members/${added.userId}`, { roleId: byName(role) });
    return {
      key: created.value as string,
      userId: added.userId,
      setRole: (name: string) =>
        fx.admin.ok('PATCH', `/app/api/members/${added.userId}`, { roleId: byName(name) }),
    };
  };

  it('resends exactly the webhook’s Failed deliveries since the time, oldest first, as a workflow', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch`);
    const other = await fx.webhook(`${receiver.url}/batch-other`);
    receiver.replies('/batch', { status: 400, statusText: 'Not yet' });
    receiver.replies('/batch-other', { status: 400 });
    const earlier = await failedOrDelivered(hook.id, 1);
    const first = await failedOrDelivered(hook.id, 2);
    const second = await failedOrDelivered(hook.id, 3);
    receiver.replies('/batch', { status: 200 });
    const fine = await failedOrDelivered(hook.id, 4);
    expect([earlier.status, first.status, second.status, fine.status]).toEqual([
      'failed',
      'failed',
      'failed',
      'delivered',
    ]);
    const others = await fx.deliveriesOf(other.id, 4);
    for (const row of others) await fx.finish(row.id);
    await fx.app.dataSource.query(
      `UPDATE deliveries SET created_at = now() - interval '3 days' WHERE id = $1`,
      [earlier.id],
    );

    // The web app's preview counts what the batch then takes.
    expect((await preview(hook.id, sinceQuery(24))).body).toEqual({ count: 2, moreRemained: false });
    expect((await preview(hook.id, sinceQuery(96))).body).toEqual({ count: 3, moreRemained: false });
    const answer = await startBatch(hook.id, { since: since(24) });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({
      webhookId: hook.id,
      limit: RESEND_BATCH_MAX,
      total: 2,
      moreRemained: false,
    });
    expect(answer.body.results.length).toBeLessThanOrEqual(2);
    const location = `/api/v1/webhooks/${hook.id}/resend-batches/${answer.body.id}`;

    const done = await completed(hook.id, answer.body.id);
    expect(done).toMatchObject({ resent: 2, refused: 0, completedAt: expect.any(String) });
    expect(done.results.map((r: { deliveryId: string }) => r.deliveryId)).toEqual([first.id, second.id]);
    expect(done.results.every((r: { refusal: unknown }) => r.refusal === null)).toBe(true);
    const workflow = fx.app.env.client.workflow.getHandle<typeof resendFailedWorkflow>(
      resendFailedWorkflowId(answer.body.id),
    );
    // With how its two resends stood then (resend-outcomes.test.ts checks which way they went).
    const { deliveries, ...tally } = await workflow.result();
    expect(tally).toEqual({ resent: 2, refused: 0 });
    expect(Object.values(deliveries!).reduce((sum, count) => sum + count, 0)).toBe(2);
    const described = await workflow.describe();
    expect(await described.staticSummary()).toContain('Resend 2 failed since');
    expect(await described.staticDetails()).toContain(`batch: ${answer.body.id}, 2 deliveries`);

    // Each resend is a new delivery of the same event, delivered now that the receiver answers 200.
    const resent = await resendsOf([first.id, second.id]);
    expect(resent.map((r) => r.id).sort()).toEqual(
      done.results.map((r: { resentDeliveryId: string }) => r.resentDeliveryId).sort(),
    );
    for (const row of resent) await expect(fx.finish(row.id)).resolves.toMatchObject({ status: 'delivered' });
    expect(resent.map((r) => r.eventId).sort()).toEqual([first.eventId, second.eventId].sort());
    // Not the earlier one, not the delivered one, not the other webhook's.
    expect(await resendsOf([earlier.id, fine.id, ...others.map((r) => r.id)])).toEqual([]);
    expect((await fx.api('GET', location.replace('/api/v1', ''))).body).toEqual(done);

    // Already resent: a second batch since the same time leaves them (their resends were delivered),
    // and the preview says so before it starts.
    expect((await preview(hook.id, sinceQuery(24))).body).toEqual({ count: 0, moreRemained: false });
    const again = await startBatch(hook.id, { since: since(24) });
    expect(again.body.total).toBe(0);
    expect(await completed(hook.id, again.body.id)).toMatchObject({ resent: 0, refused: 0, results: [] });
  });

  it('previews a batch for the web app only, in the caller’s workspace, with the spec’s refusals', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-preview`);
    expect((await preview(hook.id, sinceQuery(1))).body).toEqual({ count: 0, moreRemained: false });
    const refused = async (query: string, status: number, customCode: string) => {
      const answer = await preview(hook.id, query);
      expect([answer.status, answer.body.error.issues[0].customCode]).toEqual([status, customCode]);
    };
    await refused('since=yesterday', 400, 'invalid');
    await refused(
      `since=${encodeURIComponent(new Date(Date.now() + 2 * HOUR).toISOString())}`,
      400,
      'resendSinceInFuture',
    );
    await refused('', 400, 'required');
    await refused(`${sinceQuery(1)}&status=failed`, 400, 'unknownField');
    // Another workspace's webhook is not found; REST has no such route.
    const stranger = (await WebClient.signUp(fx.app.baseUrl, { email: 'preview-stranger@example.com' }))
      .client;
    const theirs = await preview(hook.id, sinceQuery(1), stranger);
    expect([theirs.status, theirs.body.error.issues[0].customCode]).toEqual([404, 'webhookNotFound']);
    const rest = await fetch(
      `${fx.app.baseUrl}/api/v1/webhooks/${hook.id}/resend-failed/preview?${sinceQuery(1)}`,
      {
        headers: { 'x-api-key': fx.key },
      },
    );
    expect(rest.status).toBe(404);
  });

  it('reports each refusal of the resend rules per delivery and goes on with the others', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-rules`);
    receiver.replies('/batch-rules', { status: 400 });
    const created = await failedOrDelivered(hook.id, 1);
    const recordId = (created.element as { recordId: string }).recordId;
    const updated = await fx.api('PATCH', `/records/deal/${recordId}`, {
      values: { [fx.field('Name')]: 'Renamed' },
    });
    expect(updated.status).toBe(200);
    const rows = await fx.deliveriesOf(hook.id, 2);
    await fx.finish(rows[1]!.id);
    await fx.api('PATCH', `/webhooks/${hook.id}`, { events: ['record.created'] });
    receiver.replies('/batch-rules', { status: 200 });

    // A member (not the webhook's record owner) may resend, but no record event of this webhook.
    const member = await memberWithKey('batch-member@example.com', 'Member');
    const byMember = await startBatch(hook.id, { since: since(1) }, member.key);
    expect(byMember.status).toBe(202);
    const refusedAll = await completed(hook.id, byMember.body.id);
    expect(refusedAll).toMatchObject({ total: 2, resent: 0, refused: 2 });
    expect(refusedAll.results.map((r: any) => r.refusal)).toEqual([
      expect.objectContaining({ status: 403, customCode: 'deliveryResendNotOwner' }),
      expect.objectContaining({ status: 403, customCode: 'deliveryResendNotOwner' }),
    ]);
    expect(await resendsOf([created.id, rows[1]!.id])).toEqual([]);

    const byOwner = await startBatch(hook.id, { since: since(1) });
    const mixed = await completed(hook.id, byOwner.body.id);
    expect(mixed).toMatchObject({ total: 2, resent: 1, refused: 1 });
    expect(mixed.results).toEqual([
      {
        deliveryId: created.id,
        event: 'record.created',
        resentDeliveryId: expect.any(String),
        refusal: null,
      },
      {
        deliveryId: rows[1]!.id,
        event: 'record.updated',
        resentDeliveryId: null,
        refusal: {
          status: 409,
          customCode: 'webhookNotSubscribed',
          message: 'The webhook no longer subscribes to record.updated.',
        },
      },
    ]);
    await expect(fx.finish(mixed.results[0].resentDeliveryId)).resolves.toMatchObject({
      status: 'delivered',
    });
  });

  it('acts with the requester’s role and key as they are when each resend runs', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-runtime`, {
      events: ['messaging.message.received'],
    });
    // A messaging delivery: any member with Create may resend it.
    receiver.replies('/batch-runtime', { status: 400 });
    const event = await fx.api('POST', `/webhooks/${hook.id}/test`, { event: 'messaging.message.received' });
    await fx.finish(event.body.id);
    const member = await memberWithKey('batch-runtime@example.com', 'Member');
    const actor = { ...(await loadActor(manager(), workspaceId, member.userId))!, apiKeyId: 'x' };
    const key = await manager().query(`SELECT id FROM api_keys WHERE user_id = $1`, [member.userId]);
    actor.apiKeyId = key[0].id;
    const batch = await unstartedBatches().start(actor, hook.id, since(1));
    expect(batch.total).toBe(1);
    const step = { batchId: batch.id, deliveryId: event.body.id, position: 0 };

    await member.setRole('Viewer');
    expect(await steps().resendOne(step)).toBe('refused');
    const [row] = await manager().findBy(ResendBatchResult, { batchId: batch.id });
    expect(row!.refusal).toMatchObject({ status: 403, customCode: 'insufficientPermissions' });

    await member.setRole('Member');
    const second = await unstartedBatches().start(actor, hook.id, since(1));
    await manager().delete('api_keys', { id: actor.apiKeyId });
    expect(await steps().resendOne({ ...step, batchId: second.id })).toBe('refused');
    const [gone] = await manager().findBy(ResendBatchResult, { batchId: second.id });
    expect(gone!.refusal).toMatchObject({ status: 401, customCode: 'apiKeyInvalid' });

    // The key's owner made Inactive: refused as a call with the key would be now.
    const keyed = await memberWithKey('batch-inactive@example.com', 'Member');
    const inactiveActor = (await loadActor(manager(), workspaceId, keyed.userId))!;
    const [keyRow] = await manager().query(`SELECT id FROM api_keys WHERE user_id = $1`, [keyed.userId]);
    const third = await unstartedBatches().start(
      { ...inactiveActor, apiKeyId: keyRow.id },
      hook.id,
      since(1),
    );
    await fx.admin.ok('PATCH', `/app/api/members/${keyed.userId}`, { status: 'inactive' });
    expect(await steps().resendOne({ ...step, batchId: third.id })).toBe('refused');
    const [inactive] = await manager().findBy(ResendBatchResult, { batchId: third.id });
    expect(inactive!.refusal).toMatchObject({ status: 403, customCode: 'memberInactive' });

    // Started through a connected app (OAuth): refused once the app is disconnected.
    const connected = await memberWithKey('batch-oauth@example.com', 'Member');
    const [connection] = await manager().query(
      `INSERT INTO oauth_connections (workspace_id, user_id, client_id, client_name, redirect_host, grant_id)
       VALUES ($1, $2, 'client', 'Claude', 'claude.ai', 'grant') RETURNING id`,
      [workspaceId, connected.userId],
    );
    const viaApp = {
      ...(await loadActor(manager(), workspaceId, connected.userId))!,
      oauthConnectionId: connection.id as string,
    };
    const fourth = await unstartedBatches().start(viaApp, hook.id, since(1));
    await connected.setRole('Viewer');
    expect(await steps().resendOne({ ...step, batchId: fourth.id })).toBe('refused');
    const [readNone] = await manager().findBy(ResendBatchResult, { batchId: fourth.id });
    expect(readNone!.refusal).toMatchObject({ status: 403, customCode: 'insufficientPermissions' });
    await connected.setRole('Member');
    const fifth = await unstartedBatches().start(viaApp, hook.id, since(1));
    await manager().query(`DELETE FROM oauth_connections WHERE id = $1`, [connection.id]);
    expect(await steps().resendOne({ ...step, batchId: fifth.id })).toBe('refused');
    const [disconnected] = await manager().findBy(ResendBatchResult, { batchId: fifth.id });
    expect(disconnected!.refusal).toMatchObject({ status: 401, customCode: 'oauthConnectionRevoked' });
    expect(await resendsOf([event.body.id])).toEqual([]);
  });

  it('never resends a delivery twice when a step runs again or twice at once', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-replay`);
    receiver.replies('/batch-replay', { status: 400 });
    const one = await failedOrDelivered(hook.id, 1);
    const two = await failedOrDelivered(hook.id, 2);
    const batch = await unstartedBatches().start(await admin(), hook.id, since(1));
    expect(batch.total).toBe(2);

    // A replayed step (an activity retried after its commit) finds its result.
    const replayed = { batchId: batch.id, deliveryId: one.id, position: 0 };
    expect(await steps().resendOne(replayed)).toBe('resent');
    expect(await steps().resendOne(replayed)).toBe('resent');
    expect(await resendsOf([one.id])).toHaveLength(1);

    // The same step on two workers at once: one commits, the other rolls back.
    const racing = { batchId: batch.id, deliveryId: two.id, position: 1 };
    expect(await Promise.all([steps().resendOne(racing), steps().resendOne(racing)])).toEqual([
      'resent',
      'resent',
    ]);
    expect(await resendsOf([two.id])).toHaveLength(1);

    const results = await manager().findBy(ResendBatchResult, { batchId: batch.id });
    expect(results).toHaveLength(2);
    // A step resends only what its batch chose.
    await expect(steps().resendOne({ batchId: batch.id, deliveryId: hook.id, position: 2 })).rejects.toThrow(
      'is not in batch',
    );
  });

  it(`chooses at most ${RESEND_BATCH_MAX}, oldest first, and says that more remained`, async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-bound`);
    receiver.replies('/batch-bound', { status: 400 });
    const model = await failedOrDelivered(hook.id, 1);
    // Copies of a real Failed delivery, one minute apart, the newest a minute ago.
    await fx.app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
         status, status_code, response_message, attempts, workflow_started_at, created_at)
       SELECT workspace_id, webhook_id, gen_random_uuid(), event, url, element, 'event', sources_version,
         'failed', 400, 'Bad Request', 1, now(), now() - make_interval(mins => n)
       FROM deliveries, generate_series(1, $2) AS n WHERE id = $1`,
      [model.id, RESEND_BATCH_MAX + 5],
    );
    const batch = await unstartedBatches().start(await admin(), hook.id, since(48));
    expect(batch).toMatchObject({ total: RESEND_BATCH_MAX, moreRemained: true, limit: RESEND_BATCH_MAX });
    const chosen = (await manager().findOneByOrFail(ResendBatch, { id: batch.id })).deliveryIds;
    const oldest = await manager().find(Delivery, {
      where: { webhookId: hook.id, status: 'failed' },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: RESEND_BATCH_MAX,
    });
    expect(chosen).toEqual(oldest.map((row) => row.id));
    expect(chosen).not.toContain(model.id); // the newest was left for the next batch
  });

  it(`makes ${RESEND_BATCH_MAX} resends several at once, each once, with their tally and refusals`, async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-at-once`);
    receiver.replies('/batch-at-once', { status: 400 });
    const model = await failedOrDelivered(hook.id, 1);
    // Copies of a real Failed delivery, one minute apart; every tenth a record.updated, which the
    // webhook no longer subscribes to when the batch runs.
    await fx.app.dataSource.query(
      `INSERT INTO deliveries (workspace_id, webhook_id, event_id, event, url, element, trigger, sources_version,
         status, status_code, response_message, attempts, workflow_started_at, created_at)
       SELECT workspace_id, webhook_id, gen_random_uuid(),
         CASE WHEN n % 10 = 0 THEN 'record.updated' ELSE event END, url, element, 'event', sources_version,
         'failed', 400, 'Bad Request', 1, now(), now() - make_interval(mins => n)
       FROM deliveries, generate_series(1, $2) AS n WHERE id = $1`,
      [model.id, RESEND_BATCH_MAX],
    );
    await fx.api('PATCH', `/webhooks/${hook.id}`, { events: ['record.created'] });
    receiver.replies('/batch-at-once', { status: 200 });

    const started = await startBatch(hook.id, { since: since(48) });
    expect([started.status, started.body.total]).toEqual([202, RESEND_BATCH_MAX]);
    const done = await completed(hook.id, started.body.id, 90_000);
    const chosen = (await manager().findOneByOrFail(ResendBatch, { id: started.body.id })).deliveryIds;
    const seconds = (Date.parse(done.completedAt) - Date.parse(done.createdAt)) / 1000;
    process.stdout.write(
      `${RESEND_BATCH_MAX} steps handled in ${seconds.toFixed(1)} s (${(RESEND_BATCH_MAX / seconds).toFixed(1)}/s)\n`,
    );

    // Each delivery handled once, listed in the batch's order, refused only for its event.
    const updated = new Set(
      (await manager().findBy(Delivery, { webhookId: hook.id, event: 'record.updated' })).map(
        (row) => row.id,
      ),
    );
    expect(updated.size).toBe(RESEND_BATCH_MAX / 10);
    expect(done).toMatchObject({ resent: RESEND_BATCH_MAX - updated.size, refused: updated.size });
    expect(done.results.map((r: { deliveryId: string }) => r.deliveryId)).toEqual(chosen);
    for (const result of done.results) {
      if (updated.has(result.deliveryId)) {
        expect([result.resentDeliveryId, result.refusal.customCode]).toEqual([null, 'webhookNotSubscribed']);
      } else {
        expect([typeof result.resentDeliveryId, result.refusal]).toEqual(['string', null]);
      }
    }
    const resent = await resendsOf(chosen);
    expect(resent.map((row) => row.id).sort()).toEqual(
      done.results.flatMap((r: { resentDeliveryId: string | null }) => r.resentDeliveryId ?? []).sort(),
    );
    expect(new Set(resent.map((row) => row.resendOf)).size).toBe(resent.length);

    // The workflow's tally says the same, and its history shows the steps in flight together.
    const workflow = fx.app.env.client.workflow.getHandle<typeof resendFailedWorkflow>(
      resendFailedWorkflowId(started.body.id),
    );
    expect(await workflow.result()).toMatchObject({ resent: resent.length, refused: updated.size });
    expect(mostInFlight(await workflow.fetchHistory(), 'resendBatchDelivery')).toBe(8);
  }, 120_000);

  it('refuses the whole request, writing nothing: another workspace, a role without Create, bad bodies, a disabled webhook', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-refusals`);
    const batches = () => manager().count(ResendBatch);
    const before = await batches();

    const other = await WebClient.signUp(fx.app.baseUrl, { email: 'batch-other@example.com' });
    const otherKey = (await other.client.ok('POST', '/app/api/api-keys', { name: 'other' })).value as string;
    expect(refusal(await startBatch(hook.id, { since: since(1) }, otherKey))).toEqual([
      404,
      'webhookNotFound',
    ]);

    const viewer = await memberWithKey('batch-viewer@example.com', 'Viewer');
    expect(refusal(await startBatch(hook.id, { since: since(1) }, viewer.key))).toEqual([
      403,
      'insufficientPermissions',
    ]);

    const future = await startBatch(hook.id, { since: new Date(Date.now() + 2 * HOUR).toISOString() });
    expect(future.status).toBe(400);
    expect(future.body.error).toMatchObject({
      kind: 'validation',
      issues: [{ path: ['since'], customCode: 'resendSinceInFuture' }],
    });
    for (const body of [{ since: 'yesterday' }, {}, { since: '2025-03-04' }, { since: 42 }]) {
      const refused = await startBatch(hook.id, body);
      expect([refused.status, refused.body.error.kind, refused.body.error.issues[0].path]).toEqual([
        400,
        'validation',
        ['since'],
      ]);
    }
    const unknown = await startBatch(hook.id, { since: since(1), limit: 5 });
    expect(refusal(unknown)).toEqual([400, 'unknownField']);

    await fx.api('PATCH', `/webhooks/${hook.id}`, { enabled: false });
    expect(refusal(await startBatch(hook.id, { since: since(1) }))).toEqual([409, 'webhookDisabled']);
    expect(await batches()).toBe(before);

    // Reading: another workspace sees nothing; a Viewer may read; an unknown batch is not found.
    await fx.api('PATCH', `/webhooks/${hook.id}`, { enabled: true });
    const mine = (await startBatch(hook.id, { since: since(1) })).body;
    expect(refusal(await readBatch(hook.id, mine.id, otherKey))).toEqual([404, 'webhookNotFound']);
    expect((await readBatch(hook.id, mine.id, viewer.key)).status).toBe(200);
    expect(refusal(await readBatch(hook.id, '00000000-0000-4000-8000-000000000000'))).toEqual([
      404,
      'resendBatchNotFound',
    ]);
    const elsewhere = await fx.webhook(`${receiver.url}/batch-elsewhere`);
    expect(refusal(await readBatch(elsewhere.id, mine.id))).toEqual([404, 'resendBatchNotFound']);
  });

  it('is the resend_failed and get_resend_batch actions of manage_webhooks over MCP', async () => {
    const hook = await fx.webhook(`${receiver.url}/batch-mcp`);
    receiver.replies('/batch-mcp', { status: 400 });
    const failed = await failedOrDelivered(hook.id, 1);
    receiver.replies('/batch-mcp', { status: 200 });
    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    const readOnly = await connectMcp(fx.app.baseUrl, fx.key, { readOnly: true });
    try {
      const { tools } = await readOnly.client.listTools();
      const reader = tools.find((tool) => tool.name === 'get_resend_batch')!;
      expect(reader.annotations).toMatchObject({ readOnlyHint: true });
      expect(reader.outputSchema).toBeDefined();

      const started = await mcp.call('manage_webhooks', {
        action: 'resend_failed',
        id: hook.id,
        since: since(1),
      });
      expect(started.isError).toBeFalsy();
      expect(started.structuredContent).toMatchObject({ webhookId: hook.id, total: 1 });
      let progress: any;
      await eventually(async () => {
        progress = await readOnly.call('get_resend_batch', { batchId: started.structuredContent.id });
        return progress.structuredContent?.status === 'completed';
      }, 'the MCP batch completed');
      expect(progress.structuredContent.results).toEqual([
        expect.objectContaining({ deliveryId: failed.id, resentDeliveryId: expect.any(String) }),
      ]);
      const viaManage = await mcp.call('manage_webhooks', {
        action: 'get_resend_batch',
        batchId: started.structuredContent.id,
      });
      expect(viaManage.structuredContent).toEqual(progress.structuredContent);

      const future = await mcp.call('manage_webhooks', {
        action: 'resend_failed',
        id: hook.id,
        since: new Date(Date.now() + 2 * HOUR).toISOString(),
      });
      expect(future.isError).toBe(true);
      expect(future._meta!.failure.issues[0].customCode).toBe('resendSinceInFuture');
      const missing = await readOnly.call('get_resend_batch', {
        batchId: '00000000-0000-4000-8000-000000000000',
      });
      expect(missing._meta!.failure).toMatchObject({
        kind: 'not_found',
        issues: [{ customCode: 'resendBatchNotFound' }],
      });
    } finally {
      await mcp.client.close();
      await readOnly.client.close();
    }
  });
});
