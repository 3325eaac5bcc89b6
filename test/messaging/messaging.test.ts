import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { StoredEvent } from '../../src/messaging/stored-event.entity';
import { simulateProvider } from '../../src/messaging/simulator';
import { projectRoot } from '../../src/project-root';
import { MESSAGING_EVENTS, RETIRED_EVENTS } from '../../src/shared/events/event-catalog';
import { signWebhookBody } from '../../src/webhooks/signing/signature';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { connectMcp } from '../helpers/mcp';
import { Receiver } from '../helpers/receiver';
import { WebClient } from '../helpers/web-client';

const ID_FIELDS = [
  'entityId',
  'connectedAccountId',
  'provider',
  'providerMessageId',
  'threadId',
  'providerChatId',
  'providerCalendarId',
  'providerCalendarEventId',
  'providerRelationId',
  'providerReactionId',
];

/**
 * docs/messaging.md#messaging-events and docs/messaging.md#retired-legacy-events, through the real
 * engine (time skipping).
 */
describe('messaging events and legacy events', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let account: { id: string; provider: string };
  let signingSecret: string;

  /** The built CLI, run asynchronously: it calls the app served by this very process. */
  const cli = (...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(projectRoot(), 'dist', 'src', 'cli.js'), ...args], {
        env: {
          ...process.env,
          DATABASE_URL: (fx.app.dataSource.options as { url: string }).url,
          ENCRYPTION_KEY: fx.app.config.ENCRYPTION_KEY,
          PUBLIC_URL: fx.app.baseUrl,
          LOG_LEVEL: 'silent',
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });

  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await new Receiver('msg-secret').start();
    const connected = await fx.admin.ok('POST', '/app/api/connected-accounts', {
      provider: 'gmail',
      accountId: 'sales@example.com',
      displayName: 'Sales inbox',
    });
    account = connected.account;
    signingSecret = connected.signingSecret;
  });
  afterAll(async () => {
    await receiver.stop();
    await fx.close();
  });

  it('delivers each of the 11 messaging events with a null actor and provider ids only', async () => {
    const webhook = await fx.webhook(`${receiver.url}/messaging`, {
      events: [...MESSAGING_EVENTS],
      secret: 'msg-secret',
    });
    const answers = await simulateProvider({ baseUrl: fx.app.baseUrl, accountId: account.id, signingSecret });
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(202));
    expect(answers.every((a) => (a.answer as { stored: boolean }).stored)).toBe(true);

    const deliveries = await fx.deliveriesOf(webhook.id, 11);
    for (const delivery of deliveries)
      expect(await fx.finish(delivery.id)).toEqual({ status: 'delivered', attempts: 1 });
    const requests = receiver.received.filter((r) => r.path === '/messaging');
    expect(requests.map((r) => r.json.event).sort()).toEqual([...MESSAGING_EVENTS].sort());
    for (const request of requests) {
      expect(request.signatureValid).toBe(true);
      expect(request.json).toMatchObject({
        actorId: null,
        companyId: expect.any(String),
        id: expect.any(String),
      });
      expect(request.json.data).toMatchObject({
        connectedAccountId: account.id,
        provider: 'gmail',
        entityId: expect.any(String),
      });
      for (const key of Object.keys(request.json.data)) expect(ID_FIELDS).toContain(key);
    }
    const details = (await fx.api('GET', `/webhooks/${webhook.id}/deliveries/${deliveries[0]!.id}`)).body;
    expect(details.payload).toEqual(requests.find((r) => r.json.id === deliveries[0]!.eventId)!.json.data); // as sent
  });

  it('keeps nothing when no webhook subscribes to the event', async () => {
    const other = await WebClient.signUp(fx.app.baseUrl, { email: 'quiet@example.com' });
    const quiet = await other.client.ok('POST', '/app/api/connected-accounts', {
      provider: 'slack',
      accountId: 'T1',
      displayName: 'Slack',
    });
    const before = await fx.app.dataSource.manager.count(StoredEvent);
    const [answer] = await simulateProvider({
      baseUrl: fx.app.baseUrl,
      accountId: quiet.account.id,
      signingSecret: quiet.signingSecret,
      types: ['chat.updated'],
    });
    expect(answer).toMatchObject({ status: 202, answer: { stored: false } });
    expect(await fx.app.dataSource.manager.count(StoredEvent)).toBe(before);
  });

  it('keeps nothing in the cloud offering while the workspace has no plan with messaging', async () => {
    await fx.webhook(`${receiver.url}/cloud`, { events: ['messaging.relation.created'] });
    const workspaceId = (await fx.api('GET', '/me')).body.workspace.id;
    const send = () =>
      simulateProvider({
        baseUrl: fx.app.baseUrl,
        accountId: account.id,
        signingSecret,
        types: ['relation.created'],
      });
    fx.app.config.DEPLOYMENT = 'cloud';
    try {
      await fx.app.dataSource.query(`UPDATE workspaces SET plan_state = 'none' WHERE id = $1`, [workspaceId]);
      expect((await send())[0]!.answer).toMatchObject({ stored: false });
      await fx.app.dataSource.query(`UPDATE workspaces SET plan_state = 'active' WHERE id = $1`, [
        workspaceId,
      ]);
      expect((await send())[0]!.answer).toMatchObject({ stored: true });
    } finally {
      fx.app.config.DEPLOYMENT = 'self-hosted';
    }
  });

  it('refuses a forged provider signature and an unknown account alike', async () => {
    const body = JSON.stringify({ eventId: 'forged', type: 'message.received', entityId: 'x' });
    const send = (accountId: string, signature: string) =>
      fetch(`${fx.app.baseUrl}/api/v1/messaging/inbound/${accountId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-provider-signature': signature },
        body,
      });
    for (const response of [
      await send(account.id, signWebhookBody('not-the-secret', body)),
      await send(account.id, ''),
      await send('00000000-0000-4000-8000-000000000000', signWebhookBody(signingSecret, body)),
    ]) {
      expect(response.status).toBe(401);
      expect(((await response.json()) as any).error.issues[0].customCode).toBe('providerSignatureInvalid');
    }
    expect(await fx.app.dataSource.manager.countBy(StoredEvent, { providerEventId: 'forged' })).toBe(0);
  });

  it('stores and delivers a replayed provider event once', async () => {
    const webhook = await fx.webhook(`${receiver.url}/replay`, { events: ['messaging.message.reaction'] });
    const [answer] = await simulateProvider({
      baseUrl: fx.app.baseUrl,
      accountId: account.id,
      signingSecret,
      types: ['message.reaction'],
      replay: true,
    });
    expect(answer!.answer).toMatchObject({ stored: true, duplicate: true });
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await fx.finish(delivery!.id);
    await fx.app.workerServices!.dispatcher.sweep(0);
    expect(await fx.app.dataSource.manager.countBy(Delivery, { webhookId: webhook.id })).toBe(1);
  });

  it('plays the provider from the command line', async () => {
    const result = await cli(
      'messaging',
      'simulate',
      '--account',
      account.id,
      '--event',
      'messaging.email.received',
      '--url',
      fx.app.baseUrl,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^messaging\.email\.received: 202 \{"stored":true/m);
  });

  it('imports legacy webhooks and deliveries that list with their marker and refuse resend', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'legacy-')), 'legacy.json');
    writeFileSync(
      file,
      JSON.stringify({
        webhooks: [
          {
            url: `${receiver.url}/legacy`,
            description: 'From the old system',
            events: ['deal.updated', 'contact.created', 'record.created'],
            recordSources: [{ query: { typeId: fx.deal.id } }, { query: { typeId: fx.deal.id } }],
            createdAt: '2024-05-01T10:00:00Z',
            deliveries: [
              {
                event: 'deal.updated',
                status: 'delivered',
                statusCode: 200,
                responseMessage: 'OK',
                createdAt: '2024-05-02T10:00:00Z',
                payload: { deal: { id: 'd1', amount: 5 } },
              },
              {
                event: 'contact.created',
                status: 'failed',
                statusCode: 500,
                createdAt: '2024-05-03T10:00:00Z',
                payload: { contact: { id: 'c1' } },
              },
            ],
          },
        ],
      }),
    );
    const workspaceId = (await fx.api('GET', '/me')).body.workspace.id;
    const result = await cli('import-legacy-webhooks', file, '--workspace', workspaceId);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('Imported 1 webhook(s) and 2 delivery record(s).');

    const webhooks = (await fx.api('GET', '/webhooks?search=legacy')).body.data;
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0]).toMatchObject({
      legacyEvents: ['deal.updated', 'contact.created'],
      recordSources: [expect.any(Object), expect.any(Object)],
    });
    const deliveries = (await fx.api('GET', `/webhooks/${webhooks[0].id}/deliveries`)).body.data;
    expect(deliveries.map((d: { event: string; legacy: boolean }) => [d.event, d.legacy])).toEqual([
      ['contact.created', true],
      ['deal.updated', true],
    ]);
    expect(RETIRED_EVENTS).toContain(deliveries[0].event);
    const details = (await fx.api('GET', `/webhooks/${webhooks[0].id}/deliveries/${deliveries[1].id}`)).body;
    expect(details.payload).toEqual({ deal: { id: 'd1', amount: 5 } });

    const mcp = await connectMcp(fx.app.baseUrl, fx.key);
    const listed = await mcp.call('manage_webhooks', { action: 'list_deliveries', id: webhooks[0].id });
    expect(listed.structuredContent.data.every((d: { legacy: boolean }) => d.legacy)).toBe(true);
    const viaMcp = await mcp.call('manage_webhooks', {
      action: 'resend_delivery',
      deliveryId: deliveries[0].id,
    });
    expect(viaMcp._meta!.failure).toMatchObject({
      kind: 'conflict',
      issues: [{ customCode: 'deliveryEventRetired' }],
    });
    await mcp.client.close();
    const viaRest = await fx.api('POST', `/webhooks/${webhooks[0].id}/deliveries/${deliveries[0].id}/resend`);
    expect(viaRest.status).toBe(409);

    // History is never sent again: the sweep finds nothing to start.
    await fx.app.workerServices!.dispatcher.sweep(0);
    expect(receiver.received.filter((r) => r.path === '/legacy')).toHaveLength(0);

    const bad = await cli(
      'import-legacy-webhooks',
      file.replace('legacy.json', 'missing.json'),
      '--workspace',
      'x',
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('Cannot read');
  });
});
