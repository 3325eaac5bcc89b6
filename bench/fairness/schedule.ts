// Whether the noisy workspace's retries kept the spec's schedule (docs/deliveries.md#what-a-receiver-gets):
// attempt n+1 may start no earlier than the pause after attempt n ended (10 s, doubling, capped
// at 1 h). Waiting longer for capacity is allowed; starting early never is.
import { summarize, type Summary } from '../stats';

/** One send of an attempt, as `delivery_attempts` holds it (times in epoch ms). */
export interface SendRow {
  deliveryId: string;
  attempt: number;
  send: number;
  startedAt: number;
  durationMs: number | null;
}

export interface ScheduleCheck {
  /** Pairs (attempt n ended, attempt n+1 started) seen. */
  retries: number;
  /** Retries that started before their pause was over: must be 0. */
  early: number;
  /** Within ±1 s of the pause. */
  onTime: number;
  /** More than 1 s after it (they waited for capacity). */
  late: number;
  /** How long after its due time each retry started (ms; negative is early). */
  offset: Summary;
  /** First retries only (the 10 s pause), the "10 s ± 1 s". */
  firstRetryOffset: Summary;
  /** Deliveries by number of attempts made. */
  attemptsMade: Summary;
}

/**
 * The pause after failed attempt n, written from the spec here rather than imported from the
 * service, so the bench checks the service against the rule and not against itself.
 */
export const specPauseMs = (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 3_600_000);

/** A send that started this much before its due time is early (clock reads of one machine). */
const EARLY_SLACK_MS = 50;
const ON_TIME_MS = 1000;

export function checkSchedule(rows: readonly SendRow[]): ScheduleCheck {
  const byDelivery = new Map<string, SendRow[]>();
  for (const row of rows) {
    const list = byDelivery.get(row.deliveryId) ?? [];
    list.push(row);
    byDelivery.set(row.deliveryId, list);
  }
  const offsets: number[] = [];
  const firstOffsets: number[] = [];
  const attemptsMade: number[] = [];
  let early = 0;
  let onTime = 0;
  let late = 0;
  for (const sends of byDelivery.values()) {
    sends.sort((a, b) => a.attempt - b.attempt || a.send - b.send);
    attemptsMade.push(sends[sends.length - 1]!.attempt);
    for (let i = 1; i < sends.length; i++) {
      const before = sends[i - 1]!;
      const next = sends[i]!;
      // A re-run of the same attempt (a lost worker) is not a retry; an unfinished send has no end.
      if (next.attempt !== before.attempt + 1 || before.durationMs === null) continue;
      const due = before.startedAt + before.durationMs + specPauseMs(before.attempt);
      const offset = next.startedAt - due;
      offsets.push(offset);
      if (before.attempt === 1) firstOffsets.push(offset);
      if (offset < -EARLY_SLACK_MS) early++;
      else if (offset <= ON_TIME_MS) onTime++;
      else late++;
    }
  }
  return {
    retries: offsets.length,
    early,
    onTime,
    late,
    offset: summarize(offsets),
    firstRetryOffset: summarize(firstOffsets),
    attemptsMade: summarize(attemptsMade),
  };
}
