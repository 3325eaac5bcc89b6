import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Services } from './services';
import {
  startAttemptDetailsSweep,
  startDeliveryCountFold,
  startDispatchSweep,
  startHeldRelease,
  startLateNoticeMail,
  startPreviousSecretSweep,
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
  /** Without one (no MAIL_URL), notices stay in the app and no late mail is tried. */
  mailer?: Mailer;
}): [string, () => Promise<void>][] {
  const { services, dataSource, databaseUrl, config, logger, mailer } = deps;
  const jobs: [string, () => Promise<void>][] = [
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
    [
      'sweep of expired attempt details',
      startAttemptDetailsSweep(dataSource, config.DELIVERY_ATTEMPT_DETAILS_DAYS, logger),
    ],
  ];
  if (mailer)
    jobs.push([
      'mailing of late notices',
      startLateNoticeMail({ dataSource, mailer, publicUrl: () => config.PUBLIC_URL, logger }),
    ]);
  return jobs;
}
