import type { DataSource } from 'typeorm';
import type { Config } from '../src/config';
import { DeliveryAttempts } from '../src/deliveries/delivery-attempts';
import type { HttpSender } from '../src/deliveries/http-sender';
import type { Logger } from '../src/logger';
import type { TrashService } from '../src/records/trash.service';
import type { SecretBox } from '../src/security/secret-box';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { createDeliveryActivities } from './delivery.activities';
import { createRecordErasureActivities } from './record-erasure.activities';

/** What activities may use. Workflows never see these: they get ids and call activities. */
export interface ActivityDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  trash: TrashService;
  box: SecretBox;
  sender: HttpSender;
}

/**
 * Builds the activities the worker registers (samples-typescript,
 * activities-dependency-injection). Each feature adds its activities here as it lands.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRecordErasureActivities(deps),
    ...createDeliveryActivities({
      attempts: new DeliveryAttempts({
        dataSource: deps.dataSource,
        webhooks: new WebhooksRepository(deps.dataSource.manager, deps.box),
        sender: deps.sender,
        logger: deps.logger,
      }),
    }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
