import type { DataSource } from 'typeorm';
import type { Config } from '../src/config';
import type { Logger } from '../src/logger';
import type { RecordsService } from '../src/records/records.service';
import { createRecordErasureActivities } from './record-erasure.activities';

/** What activities may use. Workflows never see these: they get ids and call activities. */
export interface ActivityDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  records: RecordsService;
}

/**
 * Builds the activities the worker registers (samples-typescript,
 * activities-dependency-injection). Each feature adds its activities here as it lands.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRecordErasureActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
