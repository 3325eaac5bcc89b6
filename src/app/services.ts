import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { deliveryWorkflowId } from '../../workflows/delivery.workflow';
import { heldDeliveriesWorkflowId } from '../../workflows/held-deliveries.workflow';
import { DeliveriesService } from '../deliveries/log/deliveries.service';
import { RetryNowService } from '../deliveries/log/retry-now.service';
import { DeliveryAttemptsRepository, EndpointStatesRepository, type Delivery } from '../deliveries/store';
import { Dispatcher, type StartedBy } from '../deliveries/engine/dispatcher';
import { WorkerStarts } from '../deliveries/engine/worker-starts';
import { HeldDeliveries } from '../deliveries/capacity/held-deliveries';
import { TemporalHeldWorkflows } from '../deliveries/capacity/held-workflows';
import type { DeliveryCapacity } from '../deliveries/capacity/delivery-capacity';
import { ResendBatchSteps } from '../deliveries/resend/resend-batch-steps';
import { ResendBatchesService } from '../deliveries/resend/resend-batches.service';
import { TestEventsService } from '../deliveries/test-events/test-events.service';
import { loadWebhookHealth } from '../deliveries/log/webhook-health.repository';
import { WorkspaceHealthService } from '../deliveries/log/workspace-health.service';
import { TemporalDeliveryStarter } from '../deliveries/engine/workflow-starter';
import { ApiKeyAuthenticator } from '../api-keys/api-key-auth';
import { FailureThrottle } from '../security/failure-throttle';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { revokeMemberApiKeys } from '../api-keys/api-keys.revocation';
import type { Config } from '../config';
import type { IdentityHooks } from '../identity/identity-hooks';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { ListenerHub } from '../deliveries/listen/listener-hub';
import { ListenerSender } from '../deliveries/listen/listener-sender';
import { ListenService } from '../deliveries/listen/listen.service';
import { EndpointAlerts } from '../deliveries/alerts/endpoint-alerts';
import { NoticesService } from '../deliveries/alerts/notices.service';
import { MessagingService } from '../messaging/messaging.service';
import { seedBuiltinModel } from '../record-model/builtin-model';
import { ModelChangesService } from '../record-model/model-changes.service';
import { recalculateFormulas } from '../records/formula-recalculation';
import { RecordsService } from '../records/records.service';
import { TemporalTrashTimer } from '../records/trash/trash-timer';
import { TrashService } from '../records/trash/trash.service';
import { SecretBox } from '../security/secret-box';
import type { TemporalHandle } from '../temporal/client';
import { WebhooksService } from '../webhooks/webhooks.service';
import type { Provider } from 'oidc-provider';
import { ConsentService } from '../oauth/consent.service';
import { createOAuthProvider } from '../oauth/oauth-provider';
import { OAuthConnectionsService, revokeMemberOAuthConnections } from '../oauth/oauth-connections.service';
import { OAuthTokenAuthenticator } from '../oauth/oauth-token-auth';

/** The features above identity that react to its changes, in its transaction. */
export const identityHooks: IdentityHooks = {
  workspaceCreatedHooks: [seedBuiltinModel],
  membershipEndedHooks: [revokeMemberApiKeys, revokeMemberOAuthConnections],
};

/** The feature services, built once per process from their dependencies. */
export function createServices(deps: {
  config: Config;
  logger: Logger;
  dataSource: DataSource;
  temporal: TemporalHandle;
  /** This process's delivery capacity, when it runs a worker (the dispatcher holds by it). */
  capacity?: DeliveryCapacity;
  /** Sends mail (MAIL_URL, or the embedded mail catcher); undefined when neither is there. */
  mailer?: Mailer;
  /**
   * Who starts the workflows of the deliveries this process dispatches: this process when it runs
   * a worker (eager), else the worker processes (docs/topology.md#eager-start).
   */
  startedBy?: StartedBy;
  /** Told of each delivery workflow this process starts, and whether it started eagerly (a metric). */
  onDeliveryStarted?: (eagerly: boolean) => void;
}) {
  const { config, logger, dataSource, temporal } = deps;
  if (!config.ENCRYPTION_KEY)
    throw new Error('ENCRYPTION_KEY must be resolved before the services are built');
  const box = new SecretBox(config.ENCRYPTION_KEY);
  const starter = new TemporalDeliveryStarter(
    temporal.client,
    temporal.taskQueue,
    temporal.eagerStart,
    config.DELIVERY_FAIRNESS_WEIGHTS,
    deps.onDeliveryStarted,
  );
  const held = new HeldDeliveries(
    dataSource,
    starter,
    logger,
    {
      // Two seconds of the workspace's slow-lane rate: enough that the lane never runs dry for it,
      // whichever of its endpoints the attempts are for.
      queuedPerWorkspace: Math.ceil(2 * config.DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE),
      // Release passes run twice a second: half a second of the workspace's slow-lane rate each.
      releasedPerPass: Math.ceil(config.DELIVERY_SLOW_LANE_RATE_PER_WORKSPACE / 2),
    },
    deps.capacity,
    new TemporalHeldWorkflows(temporal.client, temporal.taskQueue, logger, config.DELIVERY_FAIRNESS_WEIGHTS),
  );
  const dispatcher = new Dispatcher(dataSource, starter, logger, held, deps.startedBy);
  // A held delivery has no workflow of its own yet: its endpoint's held-deliveries workflow shows it.
  const temporalUrl = (delivery: Delivery) =>
    config.TEMPORAL_UI_URL
      ? `${config.TEMPORAL_UI_URL.replace(/\/+$/, '')}/namespaces/${temporal.namespace}/workflows/${
          delivery.waitingSince && !delivery.workflowStartedAt
            ? heldDeliveriesWorkflowId(delivery.webhookId)
            : deliveryWorkflowId(delivery.id)
        }`
      : null;
  const deliveries = new DeliveriesService(dataSource, starter, temporalUrl, logger);
  // Re-enabled by hand: the endpoint's state is forgotten, so its next attempts start afresh.
  const webhooks = new WebhooksService(
    dataSource,
    box,
    loadWebhookHealth,
    (manager, workspaceId, webhookId) => new EndpointStatesRepository(manager).clear(workspaceId, webhookId),
  );
  // One count per client address of credentials that are not valid: API keys and OAuth tokens.
  const invalidCredentials = FailureThrottle.postgres(
    (dataSource.driver as PostgresDriver).master as Pool,
    config,
  );
  const authenticator = new ApiKeyAuthenticator(dataSource, config, invalidCredentials);
  // Built on first use: its issuer is PUBLIC_URL, which is final only once the API listens.
  let oauthProvider: Provider | undefined;
  const oauthServer = () => (oauthProvider ??= createOAuthProvider({ config, dataSource, box, logger }));
  const oauthTokens = new OAuthTokenAuthenticator(oauthServer, dataSource, config, invalidCredentials);
  const retryNow = new RetryNowService(dataSource, deliveries, starter);
  // `listen` across processes (docs/listen.md#across-processes): the API's streams, the worker's sends.
  const listenerHub = new ListenerHub({ dataSource, logger });
  return {
    mailer: deps.mailer,
    authenticator,
    oauthServer,
    oauthTokens,
    oauthConnections: new OAuthConnectionsService(dataSource),
    consent: new ConsentService(oauthServer, dataSource, config),
    apiKeys: new ApiKeysService(dataSource, config),
    records: new RecordsService(dataSource, dispatcher),
    trash: new TrashService(
      dataSource,
      new TemporalTrashTimer(temporal.client, temporal.taskQueue),
      logger,
      dispatcher,
      async (manager, workspaceId, recordId) => {
        await new DeliveryAttemptsRepository(manager).eraseBodiesOfRecord(workspaceId, recordId);
      },
    ),
    dispatcher,
    /** A worker process's starts of what API processes dispatched (started when a worker runs). */
    workerStarts: new WorkerStarts(dataSource, starter, logger),
    held,
    deliveries,
    retryNow,
    listenerHub,
    listenerSender: new ListenerSender({ dataSource, logger }),
    listen: new ListenService({
      dataSource,
      box,
      hub: listenerHub,
      retryNow,
      logger,
      sessionsPerWorkspace: config.LISTEN_SESSIONS_PER_WORKSPACE,
    }),
    resendBatches: new ResendBatchesService(dataSource, starter, logger),
    resendSteps: new ResendBatchSteps(dataSource, deliveries, authenticator, oauthTokens),
    testEvents: new TestEventsService(dataSource, starter, temporalUrl, logger),
    modelChanges: new ModelChangesService(dataSource, recalculateFormulas),
    webhooks,
    workspaceHealth: new WorkspaceHealthService(dataSource, webhooks),
    messaging: new MessagingService(dataSource, box, config, () => dispatcher.kick('messaging')),
    alerts: new EndpointAlerts({
      dataSource,
      logger,
      mailer: deps.mailer,
      publicUrl: () => config.PUBLIC_URL,
      autoDisableAfterMs: config.WEBHOOK_AUTO_DISABLE_AFTER_SECONDS * 1000,
      onStored: () => dispatcher.kick('messaging'),
    }),
    notices: new NoticesService(dataSource),
    box,
  };
}

export type Services = ReturnType<typeof createServices>;
