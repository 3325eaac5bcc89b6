import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/webhooks/signing/signature';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  json: any;
  /** Whether X-Webhook-Signature verified (constant time, over the raw body) with the receiver's secret. */
  signatureValid: boolean | undefined;
  /** When the request's body had arrived (epoch ms): the rate tests measure the spacing. */
  at: number;
}

type Reply = {
  status: number;
  statusText?: string;
  delayMs?: number;
  headers?: Record<string, string | string[]>;
};

/**
 * A webhook receiver on loopback: answers each path from its script (one reply per request, the
 * last one repeating) and records every request with its raw body and signature check.
 */
export class Receiver {
  readonly received: Received[] = [];
  private server!: Server;
  private readonly scripts = new Map<string, Reply[]>();
  private readonly open = new Map<string, number>();
  private readonly mostOpen = new Map<string, number>();
  url = '';

  constructor(private readonly secret?: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const path = request.url ?? '';
      const opened = (this.open.get(path) ?? 0) + 1;
      this.open.set(path, opened);
      this.mostOpen.set(path, Math.max(this.mostOpen.get(path) ?? 0, opened));
      response.once('close', () => this.open.set(path, this.open.get(path)! - 1));
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const header = request.headers['x-webhook-signature'];
        this.received.push({
          at: Date.now(),
          path: request.url ?? '',
          headers: request.headers,
          rawBody,
          json: JSON.parse(rawBody.toString('utf8') || 'null'),
          signatureValid: this.secret
            ? verifyWebhookSignature(this.secret, rawBody, typeof header === 'string' ? header : undefined)
            : undefined,
        });
        const script = this.scripts.get(request.url ?? '') ?? [{ status: 200 }];
        const reply = script.length > 1 ? script.shift()! : script[0]!;
        const answer = () => {
          if (response.destroyed) return;
          response.writeHead(reply.status, reply.statusText, reply.headers);
          response.end('receiver body that must not be stored');
        };
        if (reply.delayMs) setTimeout(answer, reply.delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The most requests on `path` this receiver held unanswered at once. */
  mostAtOnce(path: string): number {
    return this.mostOpen.get(path) ?? 0;
  }

  /** The replies to the next requests on `path`, in order; the last one repeats (default: 200). */
  replies(path: string, ...script: Reply[]): this {
    this.scripts.set(path, script);
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
