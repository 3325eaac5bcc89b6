import type { DataSource } from 'typeorm';
import { DeliveryAttemptsRepository } from '../store';
import { ATTEMPT_DETAILS_BATCH, attemptDetailsCutoff } from './attempt-details-rule';

export interface AttemptDetailsSweep {
  /** DELIVERY_ATTEMPT_DETAILS_DAYS. */
  days: number;
  now?: Date;
  batchSize?: number;
  /** Ends the sweep between batches (the process is stopping); the rest waits for the next run. */
  signal?: AbortSignal;
}

/**
 * Drops the kept request details of every attempt older than the window, batch after batch, each
 * its own short statement (so no lock is held beyond one batch, and a stop or a crash loses at most
 * one batch's work, which the next run does). Delivery records, attempt rows and their outcomes are
 * never touched. Returns how many attempts lost their details, and in how many batches.
 */
export async function expireAttemptDetails(
  dataSource: DataSource,
  { days, now = new Date(), batchSize = ATTEMPT_DETAILS_BATCH, signal }: AttemptDetailsSweep,
): Promise<{ expired: number; batches: number }> {
  const cutoff = attemptDetailsCutoff(now, days);
  const attempts = new DeliveryAttemptsRepository(dataSource.manager);
  let expired = 0;
  let batches = 0;
  while (!signal?.aborted) {
    const count = await attempts.expireKeptRequests(cutoff, batchSize);
    expired += count;
    batches += 1;
    // A short batch: nothing older is left, or what is left is another sweep's (skipped locks).
    if (count < batchSize) break;
  }
  return { expired, batches };
}
