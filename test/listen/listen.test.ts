import { IsNull, Not } from 'typeorm';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { Webhook } from '../../src/webhooks/webhook.entity';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { firstDeliveryForwarded, ListenCommand, verifies } from '../helpers/listen-command';
import { Receiver } from '../helpers/receiver';
import { sharedDevServerAddress } from '../helpers/test-run';
import { WebClient } from '../helpers/web-client';

/**
 * Issue 37, item 2, "Done when": `listen` against the real stack (PostgreSQL, Temporal, a worker,
 * HTTP on loopback): the built CLI (`npm run cli -- listen`) as a child process, a record write
 * through the REST API, a local receiver that gets the POST and verifies it with the printed
 * secret (X-Webhook-Signature and the published `standardwebhooks` library); then a stream the
 * service drops, writes made meanwhile, and the reconnected command receiving every one of them.
 */

describe('listen: a workspace’s deliveries forwarded to a local URL', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  const commands: ListenCommand[] = [];
  const listenCommand = (...args: string[]) => {
    const command = new ListenCommand(['--url', fx.app.baseUrl, ...args]);
    commands.push(command);
    return command;
  };
  /** `listen` forwarding to the receiver's `path`, with the workspace's key. */
  const listenTo = (path: string, ...args: string[]) =>
    listenCommand('--forward-to', `${receiver.url}${path}`, '--api-key', fx.key, ...args);
  const listenerRows = () => fx.app.dataSource.manager.countBy(Webhook, { listenerUntil: Not(IsNull()) });

  beforeAll(async () => {
    // Real timers (the run's dev server): a retry waits for real, so catching up cannot be time skipping.
    fx = await deliveryFixture({}, { temporalAddress: sharedDevServerAddress() });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await Promise.all(commands.map((command) => command.stop()));
    await receiver?.stop();
    await fx?.close();
  });

  it('forwards a write’s delivery signed with the printed secret, and loses nothing across a dropped stream', async () => {
    const cli = listenTo('/hook', '--events', 'record.created');
    await cli.line(/^Session \S+: forwarding 1 event\(s\) to /);
    const { sessionId, secret } = await cli.session();

    const first = await fx.createDeal('First');
    // Logged as any delivery: the temporary endpoint's record, with the local answer.
    await firstDeliveryForwarded(fx, cli, receiver, { sessionId, secret, path: '/hook', recordId: first.id });
    // Not one of the workspace's webhooks.
    const listed = (await fx.api('GET', '/webhooks')).body;
    expect(JSON.stringify(listed)).not.toContain(sessionId);
    expect((await fx.api('GET', `/webhooks/${sessionId}`)).status).toBe(404);
    expect((await fx.api('DELETE', `/webhooks/${sessionId}`)).status).toBe(404);
    expect((await fx.api('GET', `/webhooks/${sessionId}/deliveries`)).body.data).toHaveLength(1);

    // The stream drops server-side while the command is frozen; two writes are made meanwhile.
    cli.child.kill('SIGSTOP');
    fx.app.workerServices!.listenerHub.endAll();
    const meanwhile = [await fx.createDeal('Second'), await fx.createDeal('Third')];
    await eventually(
      async () =>
        (await fx.app.dataSource.manager.findBy(Delivery, { webhookId: sessionId, status: 'failed' }))
          .length === 2,
      'both deliveries made meanwhile found no stream',
    );
    cli.child.kill('SIGCONT');
    await cli.line(/^Resumed session /);
    await cli.line(/^Caught up: 2 delivery\(ies\) made while disconnected are sent again\.$/);
    await eventually(() => receiver.received.length === 3, `the receiver got all three\n${cli.output()}`);
    const later = receiver.received.slice(1);
    expect(later.map((request) => request.json.data.record.ref.recordId).sort()).toEqual(
      meanwhile.map((deal) => deal.id).sort(),
    );
    for (const request of later) expect(verifies(secret, request)).toBe(true);
    // Retried within their own records (attempt 2), now Delivered.
    await eventually(
      async () =>
        (await fx.app.dataSource.manager.findBy(Delivery, { webhookId: sessionId, status: 'delivered' }))
          .length === 3,
      'the three deliveries are logged Delivered',
    );
  });

  it('refuses a stream without a key, with a bad events filter, to a Viewer, and another workspace’s key a session; nothing opens', async () => {
    const before = await listenerRows();
    const open = (query: string, key?: string, method = 'GET') =>
      fetch(`${fx.app.baseUrl}/api/v1/listen${query}`, { method, headers: key ? { 'x-api-key': key } : {} });
    const refusal = async (response: Response) => ({
      status: response.status,
      body: (await response.json()) as any,
    });

    const noKey = await refusal(await open('?events=record.created'));
    expect(noKey).toMatchObject({ status: 401, body: { error: { kind: 'authentication' } } });

    const unknown = await refusal(await open('?events=record.created,record.exploded', fx.key));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      kind: 'validation',
      issues: [{ path: ['events', 1], customCode: 'webhookEventUnknown' }],
    });
    const retired = await refusal(await open('?events=deal.created', fx.key));
    expect(retired.body.error.issues[0].customCode).toBe('webhookEventRetired');

    const viewer = await fx.keyWithRole('viewer-listen@example.com', 'Viewer');
    const refusedViewer = await refusal(await open('', viewer));
    expect(refusedViewer).toMatchObject({ status: 403, body: { error: { kind: 'authorization' } } });

    expect((await open('', fx.key, 'POST')).status).toBe(405);

    // Another workspace's key cannot resume (nor answer for) this workspace's session.
    const cli = listenTo('/other');
    const [, sessionId] = await cli.line(/^Session (\S+): forwarding/);
    const other = await WebClient.signUp(fx.app.baseUrl, { email: 'listen-attacker@example.com' });
    const otherKey = (await other.client.ok('POST', '/app/api/api-keys', { name: 'attacker' }))
      .value as string;
    const resumed = await refusal(await open(`?session=${sessionId}`, otherKey));
    expect(resumed).toMatchObject({
      status: 404,
      body: { error: { kind: 'not_found', issues: [{ customCode: 'listenSessionNotFound' }] } },
    });
    const answered = await fetch(`${fx.app.baseUrl}/api/v1/listen/${sessionId}/answers`, {
      method: 'POST',
      headers: { 'x-api-key': otherKey, 'content-type': 'application/json' },
      body: JSON.stringify({ deliveryId: sessionId, statusCode: 200 }),
    });
    expect(answered.status).toBe(404);
    await cli.stop();
    // Only the one session the test opened itself.
    expect(await listenerRows()).toBe(before + 1);

    // The command itself ends on a refusal, saying why.
    const bad = listenTo('/x', '--events', 'record.exploded');
    expect(await bad.exitCode()).toBe(1);
    const help = listenCommand('--help');
    expect(await help.exitCode()).toBe(0);
    expect(help.output()).toMatch(/^ {2}listen --forward-to LOCAL_URL /m);
    expect(bad.output()).toMatch(
      /400: record\.exploded is not an event of the catalog\. \[webhookEventUnknown\]/,
    );
  });
});
