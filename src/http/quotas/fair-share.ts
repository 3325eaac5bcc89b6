import { BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS } from '../../errors/busy';
import { rateLimitError } from '../../shared/app-error';

export interface FairShareLimits {
  /** Requests of one key (a workspace) served at once. */
  concurrency: number;
  /** Requests of one key waiting for their turn; one more is refused as busy. */
  queue: number;
}

/**
 * Requests served per key (a workspace), each key to its share: at most `concurrency` of a key's
 * requests run at once, the next wait in that key's own line (first come, first served), and a
 * line that is full refuses with the spec's busy answer (429, Retry-After). One workspace's burst
 * of a hundred writes then waits behind itself, not in front of another workspace's write.
 */
export class FairShare {
  private readonly keys = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly limits: FairShareLimits) {}

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let entry = this.keys.get(key);
    if (!entry) {
      entry = { running: 0, waiting: [] };
      this.keys.set(key, entry);
    }
    if (entry.running >= this.limits.concurrency) {
      if (entry.waiting.length >= this.limits.queue)
        throw rateLimitError(BUSY_MESSAGE, BUSY_RETRY_AFTER_SECONDS, undefined, 'lineFull');
      await new Promise<void>((resolve) => entry.waiting.push(resolve));
    } else {
      entry.running++;
    }
    try {
      return await task();
    } finally {
      const next = entry.waiting.shift();
      // The place passes to the next in line; the last one out forgets the key.
      if (next) next();
      else if (--entry.running === 0) this.keys.delete(key);
    }
  }

  /** Requests running and waiting for one key now. */
  load(key: string): { running: number; waiting: number } {
    const entry = this.keys.get(key);
    return { running: entry?.running ?? 0, waiting: entry?.waiting.length ?? 0 };
  }
}
