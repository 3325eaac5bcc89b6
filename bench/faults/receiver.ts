// The fault run's webhook receiver: node:http on loopback that records every POST it gets (the
// X-Service-Delivery-Id header, the envelope's event id and record id) the moment the body has
// arrived, before answering, so a POST whose sender died before reading the answer still counts.
// It answers 200; every `holdEvery`-th request is held `holdMs` first (under the 5 s deadline), so
// a worker killed at that moment dies mid-POST. While `failUntil` says, one path is answered 503, so
// its endpoint is failing and its new deliveries are held in the database meanwhile.
import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from '../receiver';
import { wallMs } from '../stats';

export interface Receipt {
  deliveryId: string | undefined;
  eventId: string | undefined;
  recordId: string | undefined;
  at: number;
}

export class FaultReceiver {
  readonly receipts: Receipt[] = [];
  /** delivery id → POSTs received for it. */
  readonly postsByDelivery = new Map<string, number>();
  readonly eventIds = new Set<string>();
  unparsable = 0;
  /** Requests being held right now. */
  holding = 0;
  /** Requests answered 503. */
  refused = 0;
  private failing: { path: string; until: number } | undefined;
  url = '';
  private readonly events = new EventEmitter();
  private server: Server | undefined;
  private count = 0;

  constructor(private readonly options: { holdEvery: number; holdMs: number }) {}

  /** Answers 503 to every POST on `path` until `until` (wallMs). */
  failUntil(path: string, until: number): void {
    this.failing = { path, until };
  }

  async start(): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const header = request.headers['x-service-delivery-id'];
        let json: { id?: string; data?: { record?: { ref?: { recordId?: string } } } } | undefined;
        try {
          json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          this.unparsable++;
        }
        const receipt: Receipt = {
          deliveryId: typeof header === 'string' ? header : undefined,
          eventId: json?.id,
          recordId: json?.data?.record?.ref?.recordId,
          at: wallMs(),
        };
        this.receipts.push(receipt);
        if (receipt.deliveryId)
          this.postsByDelivery.set(
            receipt.deliveryId,
            (this.postsByDelivery.get(receipt.deliveryId) ?? 0) + 1,
          );
        if (receipt.eventId) this.eventIds.add(receipt.eventId);

        this.count++;
        const refuse =
          this.failing !== undefined && this.failing.path === request.url && wallMs() < this.failing.until;
        const answer = () => {
          if (!response.destroyed) {
            response.writeHead(refuse ? 503 : 200, { 'Content-Type': 'text/plain', 'Content-Length': '2' });
            response.end(refuse ? 'no' : 'ok');
          }
          this.events.emit('answered');
        };
        if (refuse) {
          this.refused++;
          answer();
        } else if (this.options.holdEvery > 0 && this.count % this.options.holdEvery === 0) {
          this.holding++;
          setTimeout(() => {
            this.holding--;
            answer();
          }, this.options.holdMs);
        } else {
          answer();
        }
      });
    });
    this.url = await listenOnLoopback(server);
    this.server = server;
    return this;
  }

  /** Resolves true as soon as a request is being held, false after `timeoutMs`. */
  async whileHolding(timeoutMs: number): Promise<boolean> {
    const deadline = wallMs() + timeoutMs;
    while (this.holding === 0) {
      if (wallMs() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return true;
  }

  /** Resolves true right after the receiver answers its next request, false after `timeoutMs`. */
  nextAnswer(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.events.off('answered', done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.events.once('answered', done);
    });
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
    this.server = undefined;
  }
}
