import type { Logger } from '../logger';
import type { RecordsService } from '../records/records.service';

const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Every ten minutes, erases records trashed more than 30 days ago that their Temporal timer did
 * not erase (it could not be started, say). Returns the stop function.
 */
export function startRetentionSweep(records: RecordsService, logger: Logger): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = records
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
