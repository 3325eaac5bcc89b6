import type { DataSource } from 'typeorm';
import { ApiKeyAuthenticator } from './api-keys/api-key-auth';
import { ApiKeysService } from './api-keys/api-keys.service';
import type { Config } from './config';
import type { Logger } from './logger';
import { ModelChangesService } from './records/model-changes.service';
import { RecordsService } from './records/records.service';
import { TemporalTrashTimer } from './records/trash-timer';
import type { TemporalHandle } from './temporal/client';

/** The feature services, built once per process from their dependencies. */
export function createServices(deps: {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  temporal: TemporalHandle;
}) {
  const { config, logger, dataSource, temporal } = deps;
  return {
    authenticator: new ApiKeyAuthenticator(dataSource, config),
    apiKeys: new ApiKeysService(dataSource, config),
    records: new RecordsService(
      dataSource,
      new TemporalTrashTimer(temporal.client, temporal.taskQueue),
      logger,
    ),
    modelChanges: new ModelChangesService(dataSource),
  };
}

export type Services = ReturnType<typeof createServices>;
