import { createServer } from 'node:net';

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago on 127.0.0.1, for a process that binds it seconds later. It is
 * below the kernel's ephemeral range (32768 and up), where an outgoing connection of a test running
 * alongside can take it first (embedded-stack.test.ts's PostgreSQL once did not start in CI on a
 * port chosen in that range).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await isFree(port)) return port;
  }
}
