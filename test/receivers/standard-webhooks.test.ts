import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { verifyWebhookSignature } from '../../src/webhooks/signing/signature';
import { resendWorkflowId } from '../../workflows/resend-delivery.workflow';
import { deliveryFixture, type DeliveryFixture } from '../helpers/delivery-fixture';
import { eventually } from '../helpers/eventually';
import { freePort } from '../helpers/ports';
import { Receiver, type Received } from '../helpers/receiver';

/**
 * Issue 27, item 2: "The Standard Webhooks test verifies real deliveries with the published
 * libraries, across a rotation, and refuses a replayed delivery outside the tolerance." Real
 * deliveries (a record write, its workflow, the HTTP POST) reach a loopback receiver; the published
 * `standardwebhooks` packages, from npm (in this process) and from PyPI (in Python, its environment
 * made by scripts/setup-python-receivers.mjs), verify what it received exactly as a receiver would,
 * given the secret as docs/receivers.md says (a generated `whsec_` secret as it is; a chosen one as
 * `whsec_` + base64 of its UTF-8 bytes). The example receivers of both languages receive a real
 * delivery.
 */

const ROOT = join(__dirname, '../..');

/** What the tests use of the published `standardwebhooks` npm package (a devDependency). */
interface StandardWebhooksLibrary {
  Webhook: new (secret: string) => {
    verify(payload: string | Buffer, headers: Record<string, string>): unknown;
  };
}

/** The package as a receiver's code loads it, from node_modules. */
function publishedLibrary(): StandardWebhooksLibrary {
  try {
    return createRequire(join(ROOT, 'package.json'))('standardwebhooks') as StandardWebhooksLibrary;
  } catch (error) {
    throw new Error('The standardwebhooks npm package is missing (a devDependency: npm install).', {
      cause: error,
    });
  }
}

/**
 * The python of .cache/python-receivers, with the published `standardwebhooks` package from PyPI:
 * scripts/setup-python-receivers.mjs makes it once (npm test runs it too) and answers at once after.
 */
function pythonWithLibrary(): string {
  const setup = spawnSync(process.execPath, [join(ROOT, 'scripts/setup-python-receivers.mjs')], {
    encoding: 'utf8',
  });
  if (setup.status !== 0) throw new Error(`npm run setup:receivers failed:\n${setup.stdout}${setup.stderr}`);
  return setup.stdout.trim().split('\n').at(-1)!;
}

/**
 * What docs/receivers.md tells a receiver to give the libraries for a secret it chose (not of the
 * `whsec_` form): `whsec_` + base64 of its UTF-8 bytes. A generated secret is given as it is.
 */
const chosen = (secret: string) => `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;

/** The form of a generated secret: whsec_ + the base64 of 32 bytes. */
const GENERATED = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** The request's headers as the library reads them (one string each). */
const headersOf = (request: Received): Record<string, string> =>
  Object.fromEntries(
    Object.entries(request.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value]] : [],
    ),
  );

const MINUTE = 60_000;

describe('Standard Webhooks: real deliveries verified by the published libraries', () => {
  let fx: DeliveryFixture;
  let receiver: Receiver;
  let library: StandardWebhooksLibrary;
  let python: string;

  beforeAll(async () => {
    library = publishedLibrary();
    python = pythonWithLibrary();
    fx = await deliveryFixture();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await fx?.close();
  });

  /**
   * The published libraries' verdict on a received request with `secret`, the npm package's (in
   * this process) and the Python package's (its own process): "verified" or the refusal, which both
   * word alike; when they disagree, both. `at` is the receiver's clock (ms since the epoch) when it
   * is given the request: a captured request replayed then.
   */
  function verdict(secret: string, request: Received, at?: number, body = request.rawBody): string {
    const npm = npmVerdict(secret, request, at, body);
    const [python] = pythonVerdicts([{ secret, request, at, body }]);
    return npm === python ? npm : `npm: ${npm}; python: ${python}`;
  }

  function npmVerdict(secret: string, request: Received, at: number | undefined, body: Buffer): string {
    const webhook = new library.Webhook(secret);
    const clock = at === undefined ? undefined : jest.spyOn(Date, 'now').mockReturnValue(at);
    try {
      webhook.verify(body, headersOf(request));
      return 'verified';
    } catch (error) {
      return (error as Error).message;
    } finally {
      clock?.mockRestore();
    }
  }

  /** test/receivers/verify_standard_webhooks.py with the Python package, set up by scripts/setup-python-receivers.mjs. */
  function pythonVerdicts(
    cases: { secret: string; request: Received; at: number | undefined; body: Buffer }[],
  ): string[] {
    const run = spawnSync(python, [join(__dirname, 'verify_standard_webhooks.py')], {
      input: JSON.stringify(
        cases.map(({ secret, request, at, body }) => ({
          secret,
          body: body.toString('base64'),
          headers: headersOf(request),
          now: at === undefined ? null : at / 1000,
        })),
      ),
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`the Python verifier failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as string[];
  }

  const requestsTo = (path: string) => receiver.received.filter((request) => request.path === `/${path}`);

  /** A webhook on its own path; each deal written sends it one delivery, waited for. */
  async function webhookAt(path: string, extra: Record<string, unknown>) {
    const webhook = await fx.webhook(`${receiver.url}/${path}`, extra);
    const deliver = async (name: string) => {
      const before = (await fx.deliveriesOf(webhook.id, 0)).length;
      await fx.createDeal(name);
      const delivery = (await fx.deliveriesOf(webhook.id, before + 1))[before]!;
      await fx.finish(delivery.id);
      return { delivery, request: requestsTo(path).at(-1)! };
    };
    return { webhook, deliver };
  }

  /** The secret the dialog shows (its route for people with Edit, GET /app/api/webhooks/:id/secrets). */
  const dialogSecret = async (webhookId: string): Promise<string> =>
    (await fx.admin.ok<{ secret: string }>('GET', `/app/api/webhooks/${webhookId}/secrets`)).secret;

  it('a new webhook sends Standard Webhooks with a generated secret both libraries take as handed out (issue 37, item 4)', async () => {
    // Neither a secret nor standardWebhooks: the defaults a newcomer gets over REST.
    const { webhook, deliver } = await webhookAt('generated', {});
    expect(webhook).toMatchObject({ standardWebhooks: true, hasSecret: true });
    expect(JSON.stringify(webhook)).not.toContain('whsec_');
    const secret = await dialogSecret(webhook.id);
    expect(secret).toMatch(GENERATED);

    const { request } = await deliver('Generated secret deal');
    // The secret exactly as handed out, in both libraries; and the spec's header keyed with it too.
    expect(verdict(secret, request)).toBe('verified');
    expect(
      verifyWebhookSignature(secret, request.rawBody, request.headers['x-webhook-signature'] as string),
    ).toBe(true);
    // The secret's characters are not its Standard Webhooks key: that is the bytes it encodes.
    expect(verdict(chosen(secret), request)).toBe('No matching signature found');

    // Rotated to a generated secret: during the grace, both verify as handed out; the new one alone after.
    const rotated = await fx.api('POST', `/webhooks/${webhook.id}/rotate-secret`, { graceHours: 0 });
    expect(rotated.status).toBe(200);
    const next = await dialogSecret(webhook.id);
    expect(next).toMatch(GENERATED);
    expect(next).not.toBe(secret);
    const after = (await deliver('Rotated generated secret deal')).request;
    expect([verdict(next, after), verdict(secret, after)]).toEqual([
      'verified',
      'No matching signature found',
    ]);
    expect(verifyWebhookSignature(next, after.rawBody, after.headers['x-webhook-signature'] as string)).toBe(
      true,
    );
  });

  it('keeps a webhook created unsigned on request: secret null, or Standard Webhooks off without a secret', async () => {
    const unsigned = await fx.webhook(`${receiver.url}/unsigned`, { secret: null });
    expect(unsigned).toMatchObject({ standardWebhooks: true, hasSecret: false });
    const plain = await fx.webhook(`${receiver.url}/unsigned`, { standardWebhooks: false });
    expect(plain).toMatchObject({ standardWebhooks: false, hasSecret: false });
    for (const id of [unsigned.id, plain.id]) await fx.api('PATCH', `/webhooks/${id}`, { enabled: false });
  });

  it('signs a real delivery so that both libraries verify it, beside X-Webhook-Signature', async () => {
    const secret = 'quickstart-secret-1';
    const { deliver } = await webhookAt('signed', { secret, standardWebhooks: true });
    const sentAt = Math.floor(Date.now() / 1000);
    const { delivery, request } = await deliver('Standard deal');

    expect(verdict(chosen(secret), request)).toBe('verified');
    expect(request.headers).toMatchObject({
      'x-webhook-event': 'record.created',
      'webhook-id': delivery.eventId,
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(Number(request.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(sentAt);
    expect(Number(request.headers['webhook-timestamp'])).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    // The spec's header is unchanged, keyed with the same secret.
    expect(
      verifyWebhookSignature(secret, request.rawBody, request.headers['x-webhook-signature'] as string),
    ).toBe(true);
    expect(request.json.id).toBe(delivery.eventId);

    expect(verdict(chosen('another-secret'), request)).toBe('No matching signature found');
    const tampered = Buffer.from(request.rawBody.toString('utf8').replace('Standard deal', 'Standard deaL'));
    expect(verdict(chosen(secret), request, undefined, tampered)).toBe('No matching signature found');
  });

  it('refuses a delivery replayed outside the 5-minute tolerance, and takes it within', async () => {
    const secret = 'replay-secret';
    const { request } = await (
      await webhookAt('replayed', { secret, standardWebhooks: true })
    ).deliver('Replayed deal');
    const signedAt = Number(request.headers['webhook-timestamp']) * 1000;
    expect(verdict(chosen(secret), request, signedAt + 4 * MINUTE)).toBe('verified');
    expect(verdict(chosen(secret), request, signedAt + 6 * MINUTE)).toBe('Message timestamp too old');
    // A clock behind the sender's by as much refuses it too.
    expect(verdict(chosen(secret), request, signedAt - 6 * MINUTE)).toBe('Message timestamp too new');
  });

  it('signs each retry again with its own time, under the same webhook-id, and a resend under it too', async () => {
    const secret = 'retry-secret';
    receiver.replies('/retried', { status: 503 }, { status: 200 });
    const { webhook, delivery, request } = await (async () => {
      const hook = await webhookAt('retried', { secret, standardWebhooks: true });
      return { webhook: hook.webhook, ...(await hook.deliver('Retried deal')) };
    })();
    const [first, second] = requestsTo('retried');
    expect(second).toBe(request);
    expect(first!.headers['x-service-delivery-id']).toBe(second!.headers['x-service-delivery-id']);
    expect([first!.headers['webhook-id'], second!.headers['webhook-id']]).toEqual([
      delivery.eventId,
      delivery.eventId,
    ]);
    expect(Number(second!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(first!.headers['webhook-timestamp']),
    );
    expect([verdict(chosen(secret), first!), verdict(chosen(secret), second!)]).toEqual([
      'verified',
      'verified',
    ]);

    // A resend is a new delivery of the same event: the same webhook-id, so it deduplicates as one.
    const resent = await fx.api('POST', `/webhooks/${webhook.id}/deliveries/${delivery.id}/resend`);
    expect(resent.status).toBe(201);
    // A resend runs as a child of its resend workflow, which ends with it.
    await expect(
      fx.app.env.client.workflow.getHandle(resendWorkflowId(resent.body.id)).result(),
    ).resolves.toMatchObject({ status: 'delivered' });
    const again = requestsTo('retried').at(-1)!;
    expect(again.headers['x-service-delivery-id']).toBe(resent.body.id);
    expect(again.headers['webhook-id']).toBe(delivery.eventId);
    expect(verdict(chosen(secret), again)).toBe('verified');
  });

  it('verifies across a rotation: both secrets during its grace period, only the new one after it', async () => {
    const { webhook, deliver } = await webhookAt('rotated', { secret: 'old-secret', standardWebhooks: true });
    const before = (await deliver('Before the rotation')).request;
    expect(verdict(chosen('old-secret'), before)).toBe('verified');

    const rotated = await fx.api('POST', `/webhooks/${webhook.id}/rotate-secret`, {
      secret: 'new-secret',
      graceHours: 24,
    });
    expect(rotated.status).toBe(200);
    const during = (await deliver('During the grace period')).request;
    expect(during.headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect([verdict(chosen('new-secret'), during), verdict(chosen('old-secret'), during)]).toEqual([
      'verified',
      'verified',
    ]);
    expect(verdict(chosen('another-secret'), during)).toBe('No matching signature found');
    // The contract's header holds one signature: the old secret's until the grace ends.
    const spec = during.headers['x-webhook-signature'] as string;
    expect(verifyWebhookSignature('old-secret', during.rawBody, spec)).toBe(true);
    expect(verifyWebhookSignature('new-secret', during.rawBody, spec)).toBe(false);

    // The grace period ends (24 hours on, as the database's clock, not Temporal's, tells it).
    await fx.app.dataSource.query(
      `UPDATE webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [webhook.id],
    );
    const after = (await deliver('After the grace period')).request;
    expect(after.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    expect(verdict(chosen('new-secret'), after)).toBe('verified');
    expect(verdict(chosen('old-secret'), after)).toBe('No matching signature found');
    const specAfter = after.headers['x-webhook-signature'] as string;
    expect(verifyWebhookSignature('new-secret', after.rawBody, specAfter)).toBe(true);
    expect(verifyWebhookSignature('old-secret', after.rawBody, specAfter)).toBe(false);
  });

  it('with a grace period of 0, only the new secret verifies from the next delivery', async () => {
    const { webhook, deliver } = await webhookAt('rotated-at-once', {
      secret: 'old-secret',
      standardWebhooks: true,
    });
    await fx.api('POST', `/webhooks/${webhook.id}/rotate-secret`, { secret: 'new-secret', graceHours: 0 });
    const { request } = await deliver('Rotated at once');
    expect([verdict(chosen('new-secret'), request), verdict(chosen('old-secret'), request)]).toEqual([
      'verified',
      'No matching signature found',
    ]);
    // No grace: X-Webhook-Signature switches at once too.
    const spec = request.headers['x-webhook-signature'] as string;
    expect(verifyWebhookSignature('new-secret', request.rawBody, spec)).toBe(true);
  });

  it('sends no Standard Webhooks headers while the setting is off, the event header always', async () => {
    const { request } = await (
      await webhookAt('plain', { secret: 'plain-secret', standardWebhooks: false })
    ).deliver('Plain deal');
    expect(request.headers['x-webhook-event']).toBe('record.created');
    expect(Object.keys(request.headers).filter((name) => name.startsWith('webhook-'))).toEqual([]);
    expect(verdict(chosen('plain-secret'), request)).toBe('Missing required headers');
  });

  /** The receivers of docs/receivers.md (examples/receivers/standard-webhooks), as their users run them. */
  const exampleReceivers: [string, () => string, string][] = [
    ['Node.js', () => process.execPath, 'examples/receivers/standard-webhooks/receiver.mjs'],
    ['Python', () => python, 'examples/receivers/standard-webhooks/receiver.py'],
  ];

  describe.each(exampleReceivers)('the %s receiver of docs/receivers.md', (name, command, script) => {
    const SECRET = `example-receiver-secret-${name}`;
    let child: ChildProcessWithoutNullStreams;
    let output = '';
    let url = '';

    beforeAll(async () => {
      const port = await freePort();
      child = spawn(command(), [script], {
        cwd: ROOT,
        env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) },
      });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await eventually(async () => output.includes('listening on'), `the ${name} receiver listens`);
      url = `http://127.0.0.1:${port}/hooks/crm`;
    });
    afterAll(() => child?.kill());

    it('verifies a real delivery with the library, so it is Delivered; another secret is refused', async () => {
      const webhook = await fx.webhook(url, { secret: SECRET, standardWebhooks: true });
      await fx.createDeal(`${name} receiver deal`);
      const [delivery] = await fx.deliveriesOf(webhook.id);
      await expect(fx.finish(delivery!.id)).resolves.toMatchObject({ status: 'delivered', attempts: 1 });
      expect(output).toContain(`verified record.created ${delivery!.eventId} delivery=${delivery!.id}`);

      const wrong = await fx.webhook(url, { secret: 'not-the-receivers', standardWebhooks: true });
      await fx.createDeal(`${name} refused deal`);
      const [refused] = await fx.deliveriesOf(wrong.id);
      await expect(fx.finish(refused!.id)).resolves.toMatchObject({ status: 'failed', attempts: 1 });
      expect(output).toContain('refused: POST /hooks/crm (No matching signature found)');
      // Both webhooks stop here, so later deals send this receiver nothing.
      for (const id of [webhook.id, wrong.id]) await fx.api('PATCH', `/webhooks/${id}`, { enabled: false });
    });
  });
});
