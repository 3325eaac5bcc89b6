import type { DataSource } from 'typeorm';
import type { Config } from '../src/config';
import { DeliveryAttempts } from '../src/deliveries/delivery-attempts';
import type { HttpSender } from '../src/deliveries/http-sender';
import type { ResendBatchSteps } from '../src/deliveries/resend-batch-steps';
import type { Logger } from '../src/logger';
import type { TrashService } from '../src/records/trash.service';
import type { SecretBox } from '../src/security/secret-box';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { createDeliveryActivities } from './delivery.activities';
import { createRecordErasureActivities } from './record-erasure.activities';
import { createResendBatchActivities } from './resend-batch.activities';

/** What activities may use. Workflows never see these: they get ids and call activities. */
export interface ActivityDeps {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  trash: TrashService;
  box: SecretBox;
  sender: HttpSender;
  /** The steps of "Resend failed since …" (they resend through the deliveries service). */
  resendSteps: ResendBatchSteps;
}

/**
 * Builds the activities the worker registers (samples-typescript,
 * activities-dependency-injection). Each feature adds its activities here as it lands.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createRecordErasureActivities(deps),
    ...createResendBatchActivities({ steps: deps.resendSteps }),
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
