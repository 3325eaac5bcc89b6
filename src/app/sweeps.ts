import type { DataSource } from 'typeorm';
import type { Logger } from '../logger';
import { removeUnusedOAuthClients } from '../oauth/registration/unused-clients';
import type { Dispatcher } from '../deliveries/engine/dispatcher';
import { DELIVERY_STARTS_CHANNEL, type WorkerStarts } from '../deliveries/engine/worker-starts';
import { listen } from '../db/notifications';
import { foldDeliveryCounts } from '../deliveries/store';
import { expireAttemptDetails } from '../deliveries/log/attempt-details-sweep';
import type { HeldDeliveries } from '../deliveries/capacity/held-deliveries';
import type { ResendBatchesService } from '../deliveries/resend/resend-batches.service';
import type { TrashService } from '../records/trash/trash.service';
import { WebhooksRepository } from '../webhooks/webhooks.repository';
import { mailLateNotices, type LateNoticeMail } from '../deliveries/alerts/notice-mail-sweep';

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

const OAUTH_CLIENT_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Every hour, removes OAuth clients registered more than 30 days ago that nothing was issued to
 * since (src/oauth/registration/unused-clients.ts): registration is open, so unused ones would pile up for ever.
 * Returns the stop function.
 */
export function startUnusedOAuthClientSweep(dataSource: DataSource, logger: Logger): () => Promise<void> {
  return repeatEvery(
    OAUTH_CLIENT_SWEEP_EVERY_MS,
    logger,
    'sweep of unused OAuth clients failed',
    async () => {
      const removed = await removeUnusedOAuthClients(dataSource);
      if (removed) logger.info({ removed }, 'removed OAuth clients unused for 30 days');
    },
  );
}

const PREVIOUS_SECRET_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * At start and then every hour, drops the previous secrets whose rotation grace has ended
 * (WebhooksRepository.dropEndedPreviousSecrets): they stopped signing at that moment (checked at
 * send time), and are not kept sealed any longer than within the hour. Returns the stop function.
 */
export function startPreviousSecretSweep(dataSource: DataSource, logger: Logger): () => Promise<void> {
  return repeatEvery(
    PREVIOUS_SECRET_SWEEP_EVERY_MS,
    logger,
    'sweep of ended previous secrets failed',
    async () => {
      const dropped = await new WebhooksRepository(dataSource.manager).dropEndedPreviousSecrets(new Date());
      if (dropped) logger.info({ dropped }, 'dropped webhook secrets whose rotation grace period ended');
    },
    { atStart: true },
  );
}

const ATTEMPT_DETAILS_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * At start and then every hour, drops the kept request details of attempts older than `days`
 * (DELIVERY_ATTEMPT_DETAILS_DAYS; src/deliveries/log/attempt-details-sweep.ts): an hour late is
 * nothing against a window of days, and at start catches up after downtime or a shorter window.
 * Every worker process runs it; batches skip the rows another holds. Returns the stop function.
 */
export function startAttemptDetailsSweep(
  dataSource: DataSource,
  days: number,
  logger: Logger,
): () => Promise<void> {
  return repeatEvery(
    ATTEMPT_DETAILS_SWEEP_EVERY_MS,
    logger,
    'sweep of expired attempt details failed',
    async (signal) => {
      const started = performance.now();
      const { expired, batches } = await expireAttemptDetails(dataSource, { days, signal });
      if (expired)
        logger.info(
          { expired, batches, days, ms: Math.round(performance.now() - started) },
          'dropped the request details of delivery attempts older than the retention window',
        );
    },
    { atStart: true },
  );
}

const LATE_NOTICE_MAIL_EVERY_MS = 60 * 1000;

/**
 * Every minute, mails the webhook notices whose e-mail was not sent when they were made
 * (src/deliveries/alerts/notice-mail-sweep.ts). Every worker process runs it; each notice is
 * mailed once. Returns the stop function.
 */
export function startLateNoticeMail(deps: Omit<LateNoticeMail, 'now'>): () => Promise<void> {
  return repeatEvery(LATE_NOTICE_MAIL_EVERY_MS, deps.logger, 'mailing of late notices failed', async () => {
    const mailed = await mailLateNotices(deps);
    if (mailed) deps.logger.info({ mailed }, 'mailed webhook notices whose e-mail was not sent at the time');
  });
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
  return repeatEvery(DISPATCH_SWEEP_EVERY_MS, logger, 'dispatch sweep failed', async () => {
    await dispatcher.sweep();
    await resendBatches?.sweep();
  });
}

/**
 * A worker process starts the deliveries API processes dispatched as soon as one tells it
 * (DELIVERY_STARTS_CHANNEL, on a connection of its own to `databaseUrl`), so their starts are eager
 * (docs/topology.md#eager-start); a notification missed while the connection was lost is made up by
 * a pass on reconnection, and by the dispatch sweep. Returns the stop function.
 */
export function startWorkerStarts(
  starts: WorkerStarts,
  databaseUrl: string,
  logger: Logger,
): () => Promise<void> {
  const stopListening = listen(databaseUrl, DELIVERY_STARTS_CHANNEL, {
    onNotify: () => starts.wake(),
    onError: (error) => logger.warn({ err: error }, 'lost the connection that waits for deliveries to start'),
  });
  return async () => {
    await stopListening();
    await starts.idle();
  };
}

const FOLD_COUNTS_EVERY_MS = 2_000;

/**
 * Every two seconds, folds the delivery count changes the triggers appended into the counts
 * (src/deliveries/store/delivery-counts.repository.ts), so readers add only a few seconds' changes. Any number
 * of workers may run it; one folds at a time. Returns the stop function.
 */
export function startDeliveryCountFold(dataSource: DataSource, logger: Logger): () => Promise<void> {
  return repeatEvery(FOLD_COUNTS_EVERY_MS, logger, 'fold of delivery counts failed', () =>
    foldDeliveryCounts(dataSource),
  );
}

const RELEASE_EVERY_MS = 500;

/**
 * Twice a second, starts held deliveries as their endpoints have room (HeldDeliveries.release).
 * Every worker process runs it; claims skip each other's rows. Returns the stop function.
 */
export function startHeldRelease(held: HeldDeliveries, logger: Logger): () => Promise<void> {
  return repeatEvery(RELEASE_EVERY_MS, logger, 'release of held deliveries failed', () => held.wake());
}

/**
 * Runs `task` every `ms` (and at once with `atStart`), never two at once; the stop function tells
 * a run in progress to end through the signal and waits for it.
 */
function repeatEvery(
  ms: number,
  logger: Logger,
  failure: string,
  task: (signal: AbortSignal) => Promise<unknown>,
  { atStart = false } = {},
) {
  const stopping = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const run = () => {
    if (busy) return;
    busy = true;
    running = task(stopping.signal)
      .catch((error: unknown) => logger.error({ err: error }, failure))
      .finally(() => (busy = false));
  };
  const timer = setInterval(run, ms);
  timer.unref();
  if (atStart) run();
  return async () => {
    clearInterval(timer);
    stopping.abort();
    await running;
  };
}
