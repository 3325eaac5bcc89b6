// The receivers of the noisy workspace in the fairness benchmark: one that never answers (every
// attempt runs into the sender's 5 s timeout), one that answers slowly but well (4.9 s unless said,
// inside the timeout), one that answers at once, and an address where nothing listens (every
// connection refused at once). Each counts the requests it saw and the most it held at once.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '../stack';
import { listenOnLoopback } from '../receiver';

/** `none`: A writes records that no webhook subscribes to (the cost of the writes alone). */
export type BadMode = 'hang' | 'slow' | 'fast' | 'refuse' | 'none';

export const BAD_MODE_LABELS: Record<BadMode, string> = {
  hang: 'never answers',
  slow: 'answers in 4.9 s',
  fast: 'answers at once',
  refuse: 'refuses connections',
  none: 'no webhook subscribed (writes only)',
};

/** How `slow` answers unless the scenario says (inside the spec's 5 s timeout: every answer is a 200). */
export const SLOW_ANSWER_MS = 4900;

export class BadReceiver {
  url = '';
  requests = 0;
  /** Requests held open at once, at most: what the service kept in flight to this receiver. */
  maxOpen = 0;
  private open = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly mode: BadMode,
    /** How long `slow` takes to answer. */
    readonly answerMs = SLOW_ANSWER_MS,
  ) {}

  async start(): Promise<this> {
    if (this.mode === 'refuse' || this.mode === 'none') {
      // A port that was free a moment ago, below the ephemeral range, where nothing listens.
      this.url = `http://127.0.0.1:${await freePort()}/hook`;
      return this;
    }
    const server = createServer((request, response) => {
      this.requests++;
      this.maxOpen = Math.max(this.maxOpen, ++this.open);
      response.once('close', () => this.open--);
      request.resume();
      if (this.mode === 'hang') return; // the socket stays open until the sender gives up
      const answer = () => response.writeHead(200, { 'content-length': '0' }).end();
      if (this.mode === 'fast') return void request.once('end', answer);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        answer();
      }, this.answerMs);
      this.timers.add(timer);
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.url = `${await listenOnLoopback(server)}/hook`;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const socket of this.sockets) socket.destroy();
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
  }
}
