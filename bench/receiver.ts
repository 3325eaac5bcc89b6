// The webhook receiver of the benchmark: node:http on loopback with keep-alive, answering 200 at
// once. It does what a careful receiver does (reads the whole body, checks the signature over the
// raw bytes, parses the JSON) and records when each event arrived, keyed by the record id the write
// returned, so the load generator can join writes and receipts.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { wallMs } from './stats';

/**
 * Listens on a free loopback port with keep-alive longer than the sender's pool keeps sockets, so
 * no POST lands on a socket the receiver is closing; resolves the receiver's base URL.
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const HOOK_PATH = '/hook';
export const CEILING_PATH = '/ceiling';

export class BenchReceiver {
  /** record id → arrival time (wall ms) of its first delivery. */
  readonly arrivals = new Map<string, number>();
  readonly eventIds = new Set<string>();
  duplicates = 0;
  badSignatures = 0;
  unparsable = 0;
  /** Requests on the ceiling path (the plain POST loop). */
  ceilingRequests = 0;
  /** A real delivery, to replay with the same size and headers in the HTTP ceiling. */
  sample: { headers: IncomingHttpHeaders; body: Buffer } | undefined;
  url = '';
  private server: Server | undefined;
  private readonly waiting = new Map<string, (arrivedAt: number) => void>();

  constructor(private readonly secret: string) {}

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const arrivedAt = wallMs();
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        const header = request.headers['x-webhook-signature'];
        if (!this.verify(body, typeof header === 'string' ? header : undefined)) this.badSignatures++;
        let json: { id?: string; data?: { record?: { ref?: { recordId?: string } } } } | undefined;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          this.unparsable++;
        }
        if (request.url === CEILING_PATH) {
          this.ceilingRequests++;
        } else {
          const recordId = json?.data?.record?.ref?.recordId;
          if (json?.id) {
            if (this.eventIds.has(json.id)) this.duplicates++;
            this.eventIds.add(json.id);
          }
          if (recordId && !this.arrivals.has(recordId)) {
            this.arrivals.set(recordId, arrivedAt);
            this.waiting.get(recordId)?.(arrivedAt);
            this.waiting.delete(recordId);
          }
          this.sample ??= { headers: request.headers, body };
        }
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
        response.end('ok');
      });
    });
    this.url = await listenOnLoopback(server);
    this.server = server;
    return this;
  }

  /** When the first delivery of a record arrives (wall ms); at once if it already has. */
  arrivalOf(recordId: string): Promise<number> {
    const arrived = this.arrivals.get(recordId);
    if (arrived !== undefined) return Promise.resolve(arrived);
    return new Promise((resolve) => this.waiting.set(recordId, resolve));
  }

  /** Receipts that arrived in [from, to] (wall ms). */
  arrivedBetween(from: number, to: number): number {
    let count = 0;
    for (const at of this.arrivals.values()) if (at >= from && at <= to) count++;
    return count;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }

  private verify(body: Buffer, header: string | undefined): boolean {
    const expected = createHmac('sha256', this.secret).update(body).digest('hex');
    return (
      header !== undefined &&
      header.length === expected.length &&
      timingSafeEqual(Buffer.from(header), Buffer.from(expected))
    );
  }
}
