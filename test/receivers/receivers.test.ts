import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signWebhookBody } from '../../src/webhooks/signing/signature';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { freePort } from '../helpers/ports';

/**
 * The example receivers of docs/receivers.md (examples/receivers/), run as their users run them:
 * each accepts a body signed as the service signs it and refuses a tampered or unsigned one; the
 * Python one also receives a real delivery from the service. The Go one is built and vetted.
 */

/** The README Quickstart's secret: `whsec_` + base64 of 32 random bytes, made by its step 4. */
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const ROOT = join(__dirname, '../..');

type Running = { url: string; output: () => string; stop: () => void };

async function start(command: string, args: string[], secret = SECRET): Promise<Running> {
  const port = await freePort();
  const child: ChildProcessWithoutNullStreams = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(async () => output.includes('listening on'), `${command} ${args.join(' ')} listens`);
  return { url: `http://127.0.0.1:${port}/hooks/crm`, output: () => output, stop: () => child.kill() };
}

const post = (url: string, body: string, signature?: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-delivery-id': 'delivery-1',
      ...(signature === undefined ? {} : { 'x-webhook-signature': signature }),
    },
    body,
  }).then((response) => response.status);

const receivers: [string, string, string[]][] = [
  ['Node.js', process.execPath, ['examples/receivers/node/receiver.mjs']],
  ['Python', 'python3', ['examples/receivers/python/receiver.py']],
];

describe.each(receivers)('the %s receiver', (_name, command, args) => {
  let receiver: Running;
  beforeAll(async () => {
    receiver = await start(command, args);
  });
  afterAll(() => receiver?.stop());

  const body = JSON.stringify({
    event: 'record.created',
    id: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
    timestamp: '2026-11-23T10:00:00.000Z',
    companyId: 'c0ffee00-0000-4000-8000-000000000000',
    actorId: null,
    data: { note: 'prénom' },
  });

  it('accepts a body signed as the service signs it (HMAC-SHA256 of the raw bytes, lowercase hex)', async () => {
    await expect(post(receiver.url, body, signWebhookBody(SECRET, body))).resolves.toBe(204);
    await eventually(
      async () => receiver.output().includes('verified record.created 1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b'),
      'the receiver prints the verified event',
    );
  });

  it('refuses a tampered body, another secret, an uppercase or missing signature', async () => {
    const signature = signWebhookBody(SECRET, body);
    await expect(post(receiver.url, body.replace('prénom', 'prenom'), signature)).resolves.toBe(401);
    await expect(post(receiver.url, body, signWebhookBody('another-secret', body))).resolves.toBe(401);
    await expect(post(receiver.url, body, signature.toUpperCase())).resolves.toBe(401);
    await expect(post(receiver.url, body)).resolves.toBe(401);
  });
});

describe('the Python receiver and a real delivery', () => {
  let fx: DeliveryFixture;
  let receiver: Running;
  const started: Running[] = [];
  const python = async (secret?: string) => {
    const running = await start('python3', ['examples/receivers/python/receiver.py'], secret);
    started.push(running);
    return running;
  };
  beforeAll(async () => {
    fx = await deliveryFixture();
    receiver = await python();
  });
  afterAll(async () => {
    for (const running of started) running.stop();
    await fx?.close();
  });

  it('verifies the signed POST of a record write and answers 2xx, so the delivery is Delivered', async () => {
    const webhook = await fx.webhook(receiver.url, { secret: SECRET });
    // As the Quickstart's step 6 writes it: the field by its name.
    const { status, body: deal } = await fx.api('POST', '/records/deal', {
      values: { Name: 'Quickstart deal' },
    });
    expect(status).toBe(201);
    const [delivery] = await fx.deliveriesOf(webhook.id);
    await expect(fx.finish(delivery!.id)).resolves.toMatchObject({ status: 'delivered', attempts: 1 });
    expect(receiver.output()).toContain(
      `verified record.created ${delivery!.eventId} delivery=${delivery!.id}`,
    );
    expect(receiver.output()).toContain(deal.id);
  });
  /**
   * Issue 33, item 4: a receiver that checks only X-Webhook-Signature (this one, as docs/receivers.md
   * gives it) goes through a secret rotation without losing a delivery: the header is signed with the
   * old secret until the grace period ends, then with the new one.
   */
  it('verifies X-Webhook-Signature with the old secret during a rotation’s grace period, and with the new one after it', async () => {
    const oldSecret = 'rotation-old-secret';
    const newSecret = 'rotation-new-secret';
    const withOld = await python(oldSecret);
    const webhook = await fx.webhook(withOld.url, { secret: oldSecret });
    const deliver = async (name: string) => {
      const before = (await fx.deliveriesOf(webhook.id, 0)).length;
      await fx.createDeal(name);
      const delivery = (await fx.deliveriesOf(webhook.id, before + 1))[before]!;
      return { delivery, outcome: await fx.finish(delivery.id) };
    };
    await expect(deliver('Before the rotation')).resolves.toMatchObject({
      outcome: { status: 'delivered' },
    });

    const rotated = await fx.api('POST', `/webhooks/${webhook.id}/rotate-secret`, {
      secret: newSecret,
      graceHours: 24,
    });
    expect(rotated.status).toBe(200);
    const during = await deliver('During the grace period');
    expect(during.outcome).toEqual({ status: 'delivered', attempts: 1 });
    expect(withOld.output()).toContain(`delivery=${during.delivery.id}`);

    // The grace period ends (24 hours on, as the database's clock tells it): the new secret signs.
    await fx.app.dataSource.query(
      `UPDATE webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [webhook.id],
    );
    const refused = await deliver('After the grace, to the receiver that kept the old secret');
    expect(refused.outcome).toEqual({ status: 'failed', attempts: 1 });
    expect(withOld.output()).toContain('refused: POST /hooks/crm (bad or missing signature)');

    const withNew = await python(newSecret);
    expect((await fx.api('PATCH', `/webhooks/${webhook.id}`, { url: withNew.url })).status).toBe(200);
    const after = await deliver('After the grace period');
    expect(after.outcome).toEqual({ status: 'delivered', attempts: 1 });
    expect(withNew.output()).toContain(`delivery=${after.delivery.id}`);
  });
});

describe('the Go receiver', () => {
  it('builds and passes go vet', () => {
    const go = spawnSync('go', ['version']);
    // Go is on the machines this project builds on (it builds the Temporal binaries); say so plainly if not.
    if (go.error) throw new Error('go is not on PATH: install Go to check examples/receivers/go');
    const out = mkdtempSync(join(tmpdir(), 'receiver-go-'));
    // Go's own build cache, as a user's `go build` has it: a fresh one would compile the standard
    // library again on every run (74 s of the file's 86 s in CI), and the cache never changes a
    // build's outcome, only whether an unchanged package is compiled again.
    const env = { ...process.env, GOFLAGS: '-mod=mod' };
    for (const step of [
      ['vet', 'main.go'],
      ['build', '-o', join(out, 'receiver'), 'main.go'],
    ]) {
      const run = spawnSync('go', step, { cwd: join(ROOT, 'examples/receivers/go'), env, encoding: 'utf8' });
      expect({ step: step[0], status: run.status, stderr: run.stderr }).toEqual({
        step: step[0],
        status: 0,
        stderr: '',
      });
    }
    rmSync(out, { recursive: true, force: true });
  });
});
