import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { projectRoot } from '../../src/project-root';
import { verifyWebhookSignature } from '../../src/webhooks/signing/signature';
import { eventually } from './eventually';
import type { Received } from './receiver';

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
