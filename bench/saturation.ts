// The closed-loop saturation figure: N writers, each writing a record, waiting for its signed POST to
// arrive, then writing the next — so exactly N writes are in flight. Deliveries/s is what the stack
// sustains at that concurrency; next to the open-model ladder, it is the most it can do, not the
// rate it keeps up with.
import { summarize, wallMs, type Summary } from './stats';

export interface SaturationReport {
  inFlight: number;
  /** Receipts per second in the measured window. */
  rate: number;
  /** Write-to-receipt latency of the writes that started in the window. */
  latency: Summary;
  failedWrites: number;
  /** Writes whose delivery did not arrive within the per-write timeout. */
  lost: number;
}

export async function saturation(options: {
  inFlight: number;
  warmupMs: number;
  durationMs: number;
  send: (index: number) => Promise<{ status: number; recordId?: string }>;
  arrivalOf: (recordId: string) => Promise<number>;
  /** A delivery slower than this counts as lost and its writer moves on. */
  timeoutMs?: number;
}): Promise<SaturationReport> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const began = wallMs();
  const from = began + options.warmupMs;
  const to = from + options.durationMs;
  const latencies: number[] = [];
  let receipts = 0;
  let failedWrites = 0;
  let lost = 0;
  let next = 0;

  const writer = async () => {
    while (wallMs() < to) {
      const startedAt = wallMs();
      const written = await options.send(next++);
      if (!written.recordId) {
        failedWrites++;
        continue;
      }
      const arrivedAt = await Promise.race([
        options.arrivalOf(written.recordId),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs).unref()),
      ]);
      if (arrivedAt === undefined) {
        lost++;
        continue;
      }
      if (arrivedAt >= from && arrivedAt <= to) receipts++;
      if (startedAt >= from && arrivedAt <= to) latencies.push(arrivedAt - startedAt);
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, writer));
  return {
    inFlight: options.inFlight,
    rate: receipts / (options.durationMs / 1000),
    latency: summarize(latencies),
    failedWrites,
    lost,
  };
}
