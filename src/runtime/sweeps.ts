import type { Logger } from '../logger';
import type { Dispatcher } from '../deliveries/dispatcher';
import type { ResendBatchesService } from '../deliveries/resend-batches.service';
import type { TrashService } from '../records/trash.service';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Every ten minutes, erases records trashed more than 30 days ago that their Temporal timer did
 * not erase (it could not be started, say). Returns the stop function.
 */
export function startRetentionSweep(trash: TrashService, logger: Logger): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = trash
      .eraseExpiredTrash()
      .then((erased) => erased && logger.info({ erased }, 'retention sweep erased expired trash'))
      .catch((error: unknown) => logger.error({ err: error }, 'retention sweep failed'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

const DISPATCH_SWEEP_EVERY_MS = 2_000;

/**
 * Every two seconds, dispatches outbox events nobody dispatched (the API process that wrote them
 * stopped first) and starts delivery workflows that could not be started (Temporal was away), so
 * a committed write always reaches its webhooks; likewise the workflows of resend batches.
 * Returns the stop function.
 */
export function startDispatchSweep(
  dispatcher: Dispatcher,
  logger: Logger,
  resendBatches?: ResendBatchesService,
): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = dispatcher
      .sweep()
      .then(() => resendBatches?.sweep())
      .catch((error: unknown) => logger.error({ err: error }, 'dispatch sweep failed'))
      .finally(() => (busy = false));
  }, DISPATCH_SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
