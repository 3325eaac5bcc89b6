// Load generators: an open-model (constant arrival rate) generator of record writes through the
// REST API, and a closed-loop keep-alive HTTP load run in a worker thread.
import http from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { summarize, wallMs, type Summary } from './stats';

export interface ClosedLoopOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  concurrency: number;
  warmupMs: number;
  durationMs: number;
}

export interface ClosedLoopResult {
  count: number;
  seconds: number;
  latencies: Float64Array;
  statuses: Record<string, number>;
}

export interface ClosedLoopReport {
  rate: number;
  count: number;
  latency: Summary;
  statuses: Record<string, number>;
}

/** Runs http-load-thread.js in a worker thread, so the load has its own event loop and core. */
export function closedLoop(options: ClosedLoopOptions): Promise<ClosedLoopReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(join(__dirname, 'http-load-thread.js'), { workerData: options });
    const timeout = setTimeout(
      () => {
        void worker.terminate();
        reject(new Error('the HTTP load thread did not finish in time'));
      },
      options.warmupMs + options.durationMs + 30_000,
    );
    worker.once('message', (result: ClosedLoopResult) => {
      clearTimeout(timeout);
      resolve({
        rate: result.count / result.seconds,
        count: result.count,
        latency: summarize(Array.from(result.latencies)),
        statuses: result.statuses,
      });
    });
    worker.once('error', (error) => {
      clearTimeout(timeout);
      reject(error);
    });
  });
}

/** One record write: when it started and ended (wall ms), its status and the record id. */
export interface Write {
  index: number;
  /** When it was due by the schedule. */
  dueAt: number;
  startedAt: number;
  endedAt?: number;
  status?: number;
  recordId?: string;
}

export interface OpenLoadResult {
  writes: Write[];
  /** Writes not sent because `maxInFlight` writes were already waiting for an answer. */
  skipped: number;
  /** How late the generator sent writes, relative to their schedule. */
  lag: Summary;
  startedAt: number;
  endedAt: number;
  /** Resolves when every sent write has its answer (or failed). */
  settled: Promise<void>;
}

/**
 * An open-model load: write i is due at `start + i / rate`, whatever happened to the earlier ones,
 * so a slow system builds a backlog instead of slowing the load down. A write that cannot be sent
 * because `maxInFlight` are outstanding is skipped and counted.
 */
export function openLoad(options: {
  rate: number;
  durationMs: number;
  maxInFlight: number;
  send: (index: number) => Promise<{ status: number; recordId?: string }>;
  onTick?: (writes: Write[], elapsedMs: number) => void;
}): Promise<OpenLoadResult> {
  const total = Math.round((options.rate * options.durationMs) / 1000);
  const interval = 1000 / options.rate;
  const writes: Write[] = [];
  const pending = new Set<Promise<void>>();
  const lags: number[] = [];
  let skipped = 0;
  let next = 0;
  const startedAt = wallMs();
  let lastTick = startedAt;

  return new Promise((resolve) => {
    const fire = (index: number, dueAt: number) => {
      if (pending.size >= options.maxInFlight) {
        skipped++;
        return;
      }
      const write: Write = { index, dueAt, startedAt: wallMs() };
      lags.push(write.startedAt - dueAt);
      writes.push(write);
      const done = options
        .send(index)
        .then(
          (answer) => {
            write.status = answer.status;
            write.recordId = answer.recordId;
          },
          () => {
            write.status = 0;
          },
        )
        .finally(() => {
          write.endedAt = wallMs();
          pending.delete(done);
        });
      pending.add(done);
    };
    const tick = () => {
      const now = wallMs();
      while (next < total && startedAt + next * interval <= now) {
        fire(next, startedAt + next * interval);
        next++;
      }
      if (options.onTick && now - lastTick >= 5000) {
        lastTick = now;
        options.onTick(writes, now - startedAt);
      }
      if (next < total) {
        setTimeout(tick, Math.max(0, Math.min(5, startedAt + next * interval - wallMs())));
        return;
      }
      const endedAt = wallMs();
      resolve({
        writes,
        skipped,
        lag: summarize(lags),
        startedAt,
        endedAt,
        settled: (async () => {
          while (pending.size) await Promise.allSettled([...pending]);
        })(),
      });
    };
    tick();
  });
}

/** POST /api/v1/records/{type} with an API key, over its own keep-alive agent. */
export function recordWriter(options: {
  baseUrl: string;
  apiKey: string;
  type: string;
  nameFieldId: string;
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
  const target = new URL(`${options.baseUrl}/api/v1/records/${options.type}`);
  return {
    send: (index: number) =>
      new Promise<{ status: number; recordId?: string }>((resolve) => {
        const body = Buffer.from(
          JSON.stringify({ values: { [options.nameFieldId]: `Bench deal ${index}` } }),
          'utf8',
        );
        const request = http.request(
          target,
          {
            method: 'POST',
            agent,
            headers: {
              'x-api-key': options.apiKey,
              'content-type': 'application/json',
              'content-length': String(body.length),
            },
            timeout: 60_000,
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              let recordId: string | undefined;
              if (response.statusCode === 201) {
                try {
                  recordId = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string }).id;
                } catch {
                  // counted as a write without a record id
                }
              }
              resolve({ status: response.statusCode ?? 0, recordId });
            });
            response.on('error', () => resolve({ status: 0 }));
          },
        );
        request.on('timeout', () => request.destroy(new Error('timeout')));
        request.on('error', () => resolve({ status: 0 }));
        request.end(body);
      }),
    close: () => agent.destroy(),
  };
}
