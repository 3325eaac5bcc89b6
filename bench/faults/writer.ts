// Record writes at a steady rate through REST with an API key, each with its own Idempotency-Key.
// A write that is refused for a reason worth retrying (no connection while the API is down, a
// dropped connection, a timeout, 5xx, 429) is sent again with the SAME key after a bounded backoff,
// as the spec asks of clients; acknowledged = answered 2xx.
import { sleep, wallMs } from '../stats';

const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BACKOFF_MS = 4_000;

export interface FaultWrite {
  index: number;
  key: string;
  /** Sends of this write (1 = acknowledged at the first try). */
  sends: number;
  /** The answers that were retried: `0` is no answer (refused, dropped, timed out). */
  retried: number[];
  status?: number;
  recordId?: string;
  replayed?: boolean;
  ackedAt?: number;
}

export interface WriteLoad {
  writes: FaultWrite[];
  /** Resolves when every write is acknowledged or given up. */
  settled: Promise<void>;
  /** Resolves when the last write has been sent for the first time. */
  scheduled: Promise<void>;
}

export function retryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

export function startWrites(options: {
  /** One API, or several: write k goes to the k-th in turn, and each resend to the next one. */
  baseUrls: string[];
  apiKey: string;
  nameFieldId: string;
  runId: string;
  count: number;
  rate: number;
  /** A write still unacknowledged after this long is given up (counted, never silent). */
  giveUpMs: number;
  stopped: () => boolean;
}): WriteLoad {
  const writes: FaultWrite[] = [];
  const pending: Promise<void>[] = [];
  const startedAt = wallMs();
  const scheduled = (async () => {
    for (let index = 0; index < options.count && !options.stopped(); index++) {
      const due = startedAt + (index * 1000) / options.rate;
      if (due > wallMs()) await sleep(due - wallMs());
      const write: FaultWrite = { index, key: `faults-${options.runId}-${index}`, sends: 0, retried: [] };
      writes.push(write);
      pending.push(send(write));
    }
  })();

  async function send(write: FaultWrite): Promise<void> {
    const deadline = wallMs() + options.giveUpMs;
    for (let backoff = 250; ; backoff = Math.min(MAX_BACKOFF_MS, backoff * 2)) {
      write.sends++;
      const answer = await post(write);
      write.status = answer.status;
      if (answer.status >= 200 && answer.status < 300) {
        write.recordId = answer.recordId;
        write.replayed = answer.replayed;
        write.ackedAt = wallMs();
        return;
      }
      if (!retryable(answer.status) || options.stopped() || wallMs() + backoff > deadline) return;
      write.retried.push(answer.status);
      await sleep(backoff);
    }
  }

  async function post(write: FaultWrite): Promise<{ status: number; recordId?: string; replayed?: boolean }> {
    try {
      const baseUrl = options.baseUrls[(write.index + write.sends - 1) % options.baseUrls.length];
      const response = await fetch(`${baseUrl}/api/v1/records/deal`, {
        method: 'POST',
        headers: {
          'x-api-key': options.apiKey,
          'content-type': 'application/json',
          'idempotency-key': write.key,
        },
        body: JSON.stringify({ values: { [options.nameFieldId]: `Fault deal ${write.index}` } }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await response.text();
      let recordId: string | undefined;
      if (response.ok) recordId = (JSON.parse(text) as { id?: string }).id;
      return {
        status: response.status,
        recordId,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
    } catch {
      return { status: 0 };
    }
  }

  return {
    writes,
    scheduled,
    settled: (async () => {
      await scheduled;
      await Promise.allSettled(pending);
    })(),
  };
}
