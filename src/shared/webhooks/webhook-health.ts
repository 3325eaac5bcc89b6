// Endpoint health at a glance (webhook users know it from Svix and Stripe): per webhook, the last
// delivery and the outcomes of the last 24 hours and 7 days. Pure: the server computes it from
// counts, the web app shows it.
import { HOUR_MS, startOfUtc } from '../utc-time';

/**
 * Deliveries by outcome over one window, each once, by its state now
 * (src/shared/deliveries/delivery-state.ts).
 */
export interface OutcomeCounts {
  delivered: number;
  /** Failed for good: no attempt follows. */
  failed: number;
  /** Failed, with the next attempt of the schedule to come: not finished. */
  retrying: number;
  /** Pending or Sending. */
  inFlight: number;
}

export interface WindowHealth extends OutcomeCounts {
  /**
   * delivered / (delivered + failed), 0 to 1, over the finished deliveries: a retrying one counts
   * neither way until it is delivered or fails for good. null when nothing finished in the window.
   */
  successRate: number | null;
}

export const successRate = ({ delivered, failed }: OutcomeCounts): number | null =>
  delivered + failed === 0 ? null : delivered / (delivered + failed);

export const windowHealth = (counts: OutcomeCounts): WindowHealth => ({
  ...counts,
  successRate: successRate(counts),
});

/**
 * A webhook's health windows, in whole UTC hours as its counts are kept: "24 hours" is the current
 * hour and the 23 before it, "7 days" the current hour and the 167 before it.
 */
export function healthWindows(now: Date): { recent: Date; since: Date } {
  const hour = startOfUtc(now, HOUR_MS);
  return { recent: new Date(hour - 23 * HOUR_MS), since: new Date(hour - 167 * HOUR_MS) };
}

/** "98 %", "100 %", "—": a success rate as people read it (never rounded up to 100 % by mistake). */
export function formatSuccessRate(rate: number | null): string {
  if (rate === null) return '—';
  const percent = Math.floor(rate * 1000) / 10;
  return `${Number.isInteger(percent) ? percent.toFixed(0) : percent.toFixed(1)} %`;
}
