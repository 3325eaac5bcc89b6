import { EmailProof1764702000000 } from './2025-12-02-from-noon/1764702000000-email-proof';
import { Invitations1764705600000 } from './2025-12-02-from-noon/1764705600000-invitations';
import { WorkspaceCreator1764709200000 } from './2025-12-02-from-noon/1764709200000-workspace-creator';
import { DeliveryFilterIndexes1764720000000 } from './2025-12-03/1764720000000-delivery-filter-indexes';
import { EndpointAlerts1764723600000 } from './2025-12-03/1764723600000-endpoint-alerts';
import { StandardWebhooksDefault1764727200000 } from './2025-12-03/1764727200000-standard-webhooks-default';
import { DeliveryStartClaims1764730800000 } from './2025-12-03/1764730800000-delivery-start-claims';
import { CountSendingAsPending1764730800001 } from './2025-12-03/1764730800001-count-sending-as-pending';
import { DeliveryRecordStatistics1764734400000 } from './2025-12-03/1764734400000-delivery-record-statistics';
import { ListenerEndpoints1764738000000 } from './2025-12-04/1764738000000-listener-endpoints';
import { ListenerSends1764738000010 } from './2025-12-04/1764738000010-listener-sends';
import { WebhookRateLimit1764741600000 } from './2025-12-04/1764741600000-webhook-rate-limit';
import { DeliveryTraceContext1764745200000 } from './2025-12-04/1764745200000-delivery-trace-context';
import { DropEventTrigramIndex1764756000000 } from './2025-12-04/1764756000000-drop-event-trigram-index';
import { Identity1763769600000 } from './2025-11/1763769600000-identity';
import { SessionsAndApiKeys1763856000000 } from './2025-11/1763856000000-sessions-and-api-keys';
import { Records1763942400000 } from './2025-11/1763942400000-records';
import { Webhooks1764028800000 } from './2025-11/1764028800000-webhooks';
import { Deliveries1764115200000 } from './2025-11/1764115200000-deliveries';
import { IdempotencyKeys1764201600000 } from './2025-11/1764201600000-idempotency-keys';
import { Messaging1764288000000 } from './2025-11/1764288000000-messaging';
import { IdempotencyScope1764374400000 } from './2025-11/1764374400000-idempotency-scope';
import { AttemptSends1764460800000 } from './2025-11/1764460800000-attempt-sends';
import { TestEvents1764547200000 } from './2025-12-01-to-02-morning/1764547200000-test-events';
import { AttemptRequests1764633600000 } from './2025-12-01-to-02-morning/1764633600000-attempt-requests';
import { ResendBatches1764637200000 } from './2025-12-01-to-02-morning/1764637200000-resend-batches';
import { OAuth1764644400000 } from './2025-12-01-to-02-morning/1764644400000-oauth';
import { ResendBatchConnection1764648000000 } from './2025-12-01-to-02-morning/1764648000000-resend-batch-connection';
import { DeliveryLanes1764651600000 } from './2025-12-01-to-02-morning/1764651600000-delivery-lanes';
import { DeliveriesWaitingIndex1764651600001 } from './2025-12-01-to-02-morning/1764651600001-deliveries-waiting-index';
import { RateLimits1764655200000 } from './2025-12-01-to-02-morning/1764655200000-rate-limits';
import { OAuthClientLimits1764658800000 } from './2025-12-01-to-02-morning/1764658800000-oauth-client-limits';
import { DeliveryLogIndexes1764662400000 } from './2025-12-01-to-02-morning/1764662400000-delivery-log-indexes';
import { DeliveryCounts1764666000000 } from './2025-12-01-to-02-morning/1764666000000-delivery-counts';
import { AttemptRequestExpiry1764669600000 } from './2025-12-01-to-02-morning/1764669600000-attempt-request-expiry';
import { DeliveryFindIndexes1764673200000 } from './2025-12-01-to-02-morning/1764673200000-delivery-find-indexes';
import { DeliveryRetryingIndexes1764676800000 } from './2025-12-02-from-noon/1764676800000-delivery-retrying-indexes';
import { WebhookSignatures1764680400000 } from './2025-12-02-from-noon/1764680400000-webhook-signatures';
import { DeliveryLegacyEventIndex1764684000000 } from './2025-12-02-from-noon/1764684000000-delivery-legacy-event-index';
import { OAuthReadOnly1764687600000 } from './2025-12-02-from-noon/1764687600000-oauth-read-only';
import { IdSpelling1764691200000 } from './2025-12-02-from-noon/1764691200000-id-spelling';
import { WorkspacesCreated1764694800000 } from './2025-12-02-from-noon/1764694800000-workspaces-created';

// Migrations sit in folders named after the UTC time of their stamps, at most 20 to a folder.

/** Every migration, oldest first. Listed explicitly so the same list runs from src and dist. */
export const migrations = [
  Identity1763769600000,
  SessionsAndApiKeys1763856000000,
  Records1763942400000,
  Webhooks1764028800000,
  Deliveries1764115200000,
  IdempotencyKeys1764201600000,
  Messaging1764288000000,
  IdempotencyScope1764374400000,
  AttemptSends1764460800000,
  TestEvents1764547200000,
  AttemptRequests1764633600000,
  ResendBatches1764637200000,
  OAuth1764644400000,
  ResendBatchConnection1764648000000,
  DeliveryLanes1764651600000,
  DeliveriesWaitingIndex1764651600001,
  RateLimits1764655200000,
  OAuthClientLimits1764658800000,
  DeliveryLogIndexes1764662400000,
  DeliveryCounts1764666000000,
  AttemptRequestExpiry1764669600000,
  DeliveryFindIndexes1764673200000,
  DeliveryRetryingIndexes1764676800000,
  WebhookSignatures1764680400000,
  DeliveryLegacyEventIndex1764684000000,
  OAuthReadOnly1764687600000,
  IdSpelling1764691200000,
  WorkspacesCreated1764694800000,
  EmailProof1764702000000,
  Invitations1764705600000,
  WorkspaceCreator1764709200000,
  DeliveryFilterIndexes1764720000000,
  EndpointAlerts1764723600000,
  StandardWebhooksDefault1764727200000,
  DeliveryStartClaims1764730800000,
  CountSendingAsPending1764730800001,
  DeliveryRecordStatistics1764734400000,
  ListenerEndpoints1764738000000,
  ListenerSends1764738000010,
  WebhookRateLimit1764741600000,
  DeliveryTraceContext1764745200000,
  DropEventTrigramIndex1764756000000,
];
