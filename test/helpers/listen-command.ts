import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Delivery } from '../../src/deliveries/store/delivery.entity';
import { projectRoot } from '../../src/project-root';
import { verifyWebhookSignature } from '../../src/webhooks/signing/signature';
import type { DeliveryFixture } from './delivery-fixture';
import { eventually } from './eventually';
import type { Receiver, Received } from './receiver';

/** The built CLI running `listen`, its output read line by line. */
export class ListenCommand {
  readonly lines: string[] = [];
  readonly child: ChildProcessWithoutNullStreams;
  private exited: Promise<number | null>;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [join(projectRoot(), 'dist/src/cli.js'), 'listen', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent' },
    });
    let pending = '';
    const collect = (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const parts = pending.split('\n');
      pending = parts.pop()!;
      this.lines.push(...parts);
    };
    this.child.stdout.on('data', collect);
    this.child.stderr.on('data', collect);
    this.exited = new Promise((resolve) => this.child.once('exit', resolve));
  }

  /** The first line matching `pattern`, once printed. */
  async line(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
    await eventually(
      () => this.lines.some((line) => pattern.test(line)),
      `listen printed ${pattern}\n${this.output()}`,
      timeoutMs,
    );
    return this.lines.find((line) => pattern.test(line))!.match(pattern)!;
  }

  /** The new session the command printed: its id and its signing secret. */
  async session(): Promise<{ sessionId: string; secret: string }> {
    const [, sessionId] = await this.line(/^Session (\S+): forwarding \d+ event\(s\) to /);
    const [, secret] = await this.line(/^Signing secret of this session: (whsec_\S+)$/);
    return { sessionId: sessionId!, secret: secret! };
  }

  output = () => this.lines.join('\n');

  async exitCode(): Promise<number | null> {
    return this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      this.child.kill('SIGCONT');
      this.child.kill('SIGTERM');
    }
    await this.exited;
  }
}

const headersOf = (request: Received): Record<string, string> =>
  Object.fromEntries(
    Object.entries(request.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value]] : [],
    ),
  );

/** Whether a received request verifies with `secret`, by both signature schemes. */
export function verifies(secret: string, request: Received): boolean {
  const legacy = verifyWebhookSignature(secret, request.rawBody, headersOf(request)['x-webhook-signature']);
  new StandardWebhook(secret).verify(request.rawBody, headersOf(request));
  return legacy;
}

/**
 * The session's first delivery, of `recordId`'s record.created: received at `path`, verified with
 * the session's secret, answered 200 in the command's output and logged Delivered; its log record.
 */
export async function firstDeliveryForwarded(
  fx: DeliveryFixture,
  command: ListenCommand,
  receiver: Receiver,
  expected: { sessionId: string; secret: string; path: string; recordId: string },
) {
  await eventually(() => receiver.received.length === 1, 'the receiver got the first delivery');
  const [received] = receiver.received;
  expect(received!.path).toBe(expected.path);
  expect(received!.json).toMatchObject({
    event: 'record.created',
    data: { record: { ref: { recordId: expected.recordId } } },
  });
  expect(verifies(expected.secret, received!)).toBe(true);
  await command.line(/record\.created {2}\S+ {2}→ 200 OK \(\d+ ms\)$/);
  const delivered = () =>
    fx.app.dataSource.manager.countBy(Delivery, { webhookId: expected.sessionId, status: 'delivered' });
  await eventually(async () => (await delivered()) === 1, 'the delivery is logged Delivered');
  const [logged] = await fx.deliveriesOf(expected.sessionId);
  expect(logged).toMatchObject({
    url: `listen://${expected.sessionId}`,
    statusCode: 200,
    event: 'record.created',
  });
  return logged!;
}

/** The events of a `text/event-stream` response, read as they come. */
export async function* streamEvents(response: Response): AsyncGenerator<{ name: string; data: any }> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const lines = pending.slice(0, end).split('\n');
      pending = pending.slice(end + 2);
      const field = (name: string) =>
        lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
      yield { name: field('event') ?? '', data: JSON.parse(field('data') ?? 'null') };
    }
  }
}

/** `GET /api/v1/listen` opened with `fetch`, as a client other than the command would: its answer, its events, and a way to drop it. */
export async function openListenStream(baseUrl: string, key: string, query = '') {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/listen${query}`, {
    headers: { 'x-api-key': key, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  return { response, events: streamEvents(response), close: () => controller.abort() };
}
