import { Client } from 'pg';

export interface WritesDuring {
  /** How long the work took (ms). */
  took: number;
  /** Writes sent and answered while the work ran. */
  during: number;
  /** The slowest write of the whole run (ms). */
  slowest: number;
  /** Every write made. */
  writes: number;
}

/**
 * Runs `write` again and again over a connection of its own, starts `work` once the writer got
 * going (so it starts amid writes), and stops writing when the work ended: whether writes went on
 * while, say, a migration built an index on their table.
 */
export async function writesDuring(
  databaseUrl: string,
  write: (writer: Client, n: number) => Promise<unknown>,
  work: () => Promise<unknown>,
): Promise<WritesDuring> {
  const writer = new Client({ connectionString: databaseUrl });
  await writer.connect();
  const writes: { sent: number; answered: number }[] = [];
  let working = true;
  const writing = (async () => {
    for (let n = 0; working; n++) {
      const sent = performance.now();
      await write(writer, n);
      writes.push({ sent, answered: performance.now() });
    }
  })();
  let started = 0;
  let finished = 0;
  try {
    while (writes.length < 5) await new Promise((resolve) => setTimeout(resolve, 10));
    started = performance.now();
    await work();
    finished = performance.now();
  } finally {
    working = false;
    await writing;
    await writer.end();
  }
  return {
    took: finished - started,
    during: writes.filter((one) => one.sent >= started && one.answered <= finished).length,
    slowest: Math.max(...writes.map((one) => one.answered - one.sent)),
    writes: writes.length,
  };
}
