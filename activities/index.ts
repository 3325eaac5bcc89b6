import type { DataSource } from 'typeorm';
import type { Config } from '../src/config';
import { DeliveryAttempts } from '../src/deliveries/engine/delivery-attempts';
import type { HttpSender } from '../src/deliveries/engine/http-sender';
import type { ResendBatchSteps } from '../src/deliveries/resend/resend-batch-steps';
import type { Logger } from '../src/logger';
import type { TrashService } from '../src/records/trash/trash.service';
import type { SecretBox } from '../src/security/secret-box';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { createDeliveryCapacity, type DeliveryCapacity } from '../src/deliveries/capacity/delivery-capacity';
import { DeliveryLanes, type LaneObserver } from '../src/deliveries/capacity/delivery-lanes';
import { DeliveryAttemptsRepository } from '../src/deliveries/store';
import type { HeldDeliveries } from '../src/deliveries/capacity/held-deliveries';
import type { ListenerSender } from '../src/deliveries/listen/listener-sender';
import type { EndpointAlerts } from '../src/deliveries/alerts/endpoint-alerts';
import { createDeliveryActivities } from './delivery.activities';
import { createHeldDeliveryActivities } from './held-deliveries.activities';
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
  /** This process's delivery capacity, when something else (the metrics) reads it too. */
  capacity?: DeliveryCapacity;
  laneObserver?: LaneObserver;
  /** The held deliveries, which an operator releases by hand from their endpoint's workflow. */
  held?: HeldDeliveries;
  /** Notices, operational events and auto-disable of endpoints that keep failing. */
  alerts?: EndpointAlerts;
  /** Deliveries to `listen://` URLs go to their session's stream, in whichever API process holds it. */
  listeners?: ListenerSender;
}

/**
 * Builds the activities the worker registers (samples-typescript,
 * activities-dependency-injection). Each feature adds its activities here as it lands.
 */
export function createActivities(deps: ActivityDeps) {
  const attempts = new DeliveryAttempts({
    dataSource: deps.dataSource,
    webhooks: new WebhooksRepository(deps.dataSource.manager, deps.box),
    sender: deps.listeners ? deps.listeners.routing(deps.sender) : deps.sender,
    logger: deps.logger,
  });
  const capacity = deps.capacity ?? createDeliveryCapacity(deps);
  const { alerts } = deps;
  if (alerts) capacity.health.watch(alerts);
  const history = new DeliveryAttemptsRepository(deps.dataSource.manager);
  const lanes = new DeliveryLanes({
    attempts,
    ...capacity,
    markWaiting: (deliveryId) => history.markWaiting(deliveryId),
    observer: deps.laneObserver,
    onFailedForGood: alerts ? (request) => alerts.failedForGood(request) : undefined,
  });
  return {
    ...createRecordErasureActivities(deps),
    ...createResendBatchActivities({ steps: deps.resendSteps }),
    ...createDeliveryActivities({ attempts, lanes }),
    ...createHeldDeliveryActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
