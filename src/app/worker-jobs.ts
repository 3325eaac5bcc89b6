import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Services } from './services';
import {
  startAttemptDetailsSweep,
  startDeliveryCountFold,
  startDispatchSweep,
  startHeldRelease,
  startPreviousSecretSweep,
  startEndedListenerSweep,
  startRetentionSweep,
  startUnusedOAuthClientSweep,
  startWorkerStarts,
} from './sweeps';

/** A worker process's background jobs, started in order: each with its name and stop function. */
export function startWorkerJobs(deps: {
  services: Services;
  dataSource: DataSource;
  databaseUrl: string;
  config: Config;
  logger: Logger;
}): [string, () => Promise<void>][] {
  const { services, dataSource, databaseUrl, config, logger } = deps;
  return [
    ['retention sweep', startRetentionSweep(services.trash, logger)],
    ['dispatch sweep', startDispatchSweep(services.dispatcher, logger, services.resendBatches)],
    ['release of held deliveries', startHeldRelease(services.held, logger)],
    [
      'starts of deliveries API processes dispatched',
      startWorkerStarts(services.workerStarts, databaseUrl, logger),
    ],
    ['fold of delivery counts', startDeliveryCountFold(dataSource, logger)],
    ['sweep of unused OAuth clients', startUnusedOAuthClientSweep(dataSource, logger)],
    ['sweep of ended previous secrets', startPreviousSecretSweep(dataSource, logger)],
    ['sweep of ended listen sessions', startEndedListenerSweep(dataSource, logger)],
    [
      'sweep of expired attempt details',
      startAttemptDetailsSweep(dataSource, config.DELIVERY_ATTEMPT_DETAILS_DAYS, logger),
    ],
  ];
}
