// The receivers of the noisy workspace in the fairness benchmark: one that never answers (every
// attempt runs into the sender's 5 s timeout), one that answers after 4.9 s, and an address where
// nothing listens (every connection refused at once). Each counts the requests it saw.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from '../stack';
import { listenOnLoopback } from '../receiver';

/** `none`: A writes records that no webhook subscribes to (the cost of the writes alone). */
export type BadMode = 'hang' | 'slow' | 'refuse' | 'none';

export const BAD_MODE_LABELS: Record<BadMode, string> = {
  hang: 'never answers',
  slow: 'answers in 4.9 s',
  refuse: 'refuses connections',
  none: 'no webhook subscribed (writes only)',
};

const SLOW_ANSWER_MS = 4900;

export class BadReceiver {
  url = '';
  requests = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(readonly mode: BadMode) {}

  async start(): Promise<this> {
    if (this.mode === 'refuse' || this.mode === 'none') {
      // A port that was free a moment ago, below the ephemeral range, where nothing listens.
      this.url = `http://127.0.0.1:${await freePort()}/hook`;
      return this;
    }
    const server = createServer((request, response) => {
      this.requests++;
      request.resume();
      if (this.mode === 'hang') return; // the socket stays open until the sender gives up
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        response.writeHead(200, { 'content-length': '0' }).end();
      }, SLOW_ANSWER_MS);
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
