// The one owner of the deliveries feature's tables — `deliveries`, `delivery_attempts`, the kept
// counts (`delivery_counts`, `delivery_count_changes`), `endpoint_states`, `webhook_send_slots`,
// `resend_batches` and `resend_batch_results` (docs/architecture.md#the-direction-of-imports): every read and write of
// them is a named function or method of this folder, and everything outside it imports only this
// file (dependency-cruiser: deliveries-store-owns-its-tables). The entities are exported as types
// only, so no caller can build a query of its own on them.
import { DeliveryAttempt } from './delivery-attempt.entity';
import { Delivery } from './delivery.entity';
import { ResendBatch, ResendBatchResult } from './resend-batch.entity';

export type { Delivery, DeliveryElement, DeliveryStatus } from './delivery.entity';
export type { AttemptSendOutcome, DeliveryAttempt } from './delivery-attempt.entity';
export { DeliveriesRepository, importedDeliveries } from './deliveries.repository';
export type { NewDelivery, NewestDelivery } from './deliveries.repository';
export type { DeliveryListQuery } from './delivery-log.repository';
export { DeliveryAttemptsRepository } from './delivery-attempts.repository';
export type {
  CompletedSend,
  KeptRequest,
  OpenedAttempt,
  SendRef,
  SendResult,
} from './delivery-attempts.repository';
export {
  claimUnstarted,
  insertDispatched,
  markWorkflowsStarted,
  unstartedBefore,
} from './dispatched-deliveries.repository';
export type { DispatchedDeliveries, OutboxTable } from './dispatched-deliveries.repository';
export {
  claimHeld,
  claimHeldOne,
  heldEndpoints,
  heldPlace,
  heldSummary,
  queuedByWorkspace,
  unclaimHeld,
  waitingByWebhook,
} from './held-deliveries.repository';
export type { HeldEndpoint, HeldSummary } from './held-deliveries.repository';
export { countDrift } from './delivery-recount.repository';
export type { CountDrift } from './delivery-recount.repository';
export { ResendBatchesRepository } from './resend-batches.repository';
export type { NewResendBatch, ResendBatchResultRow, ResendBatchStepKey } from './resend-batches.repository';
export type { ResendBatch, ResendRefusal } from './resend-batch.entity';
export { EndpointStatesRepository } from './endpoint-states.repository';
export { SendSlotsRepository } from './send-slots.repository';
export type { EndpointKey } from './endpoint-states.repository';
export {
  ALL_WEBHOOKS,
  countsByBucket,
  countsByWebhook,
  foldDeliveryCounts,
  webhooksWithFailures,
} from './delivery-counts.repository';
export { loadLegacyEvents } from './legacy-events.repository';

/** The tables' entities, for the composition root's list of entities (src/app/db/entities.ts) only. */
export const DELIVERY_ENTITIES = [Delivery, DeliveryAttempt, ResendBatch, ResendBatchResult] as const;
