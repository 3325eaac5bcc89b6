import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../../src/config';
import { HttpSender } from '../../src/deliveries/engine/http-sender';
import { allowedCidrsFor } from '../../src/deliveries/engine/outbound-guard';
import { createApp } from '../../src/app/http-app';
import { createLogger } from '../../src/logger';
import { createServices, type Services } from '../../src/app/services';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { createTestDatabase } from './database';
import { createTimeSkippingEnv } from './temporal';
import { createDeliveryCapacity } from '../../src/deliveries/capacity/delivery-capacity';
import { startHeldRelease, startWorkerStarts } from '../../src/app/sweeps';
import { workflowStartMetrics } from '../../src/deliveries/engine/start-metrics';
import { Client } from '@temporalio/client';
import { laneSizes, runWorkers } from '../../src/app/temporal-worker';
import { createMetricsRegistry } from '../../src/metrics/registry';
import { deliveryMetrics } from '../../src/deliveries/capacity/delivery-metrics';
import type { Registry } from 'prom-client';
import { Mailer } from '../../src/mail/mailer';
import { startTestMailCatcher, type TestMailCatcher } from './mail-catcher';
import { registerMailbox, unregisterMailbox } from './mailboxes';
import { recordingLogger } from './server-errors';
import { sharedDevServerAddress } from './test-run';
import { testWorkflowCode } from './workflow-bundle';
import { startTracing } from '../../src/tracing/tracing';
import { tracingClientInterceptors } from '../../src/temporal/tracing';

export interface TestApp {
  baseUrl: string;
  dataSource: DataSource;
  config: Config;
  env: TestWorkflowEnvironment;
  taskQueue: string;
  /** The services of a worker process; set when started with `{ worker: true }`. */
  workerServices?: Services;
  /** The process's Prometheus metrics, as GET /metrics serves them. */
  metrics: Registry;
  /** With `{ topology: true }`: the worker process's own metrics (its workflow starts). */
  workerMetrics?: Registry;
  /** The real mail catcher (Mailpit) the app sends its mail to: read links from it. */
  mail: TestMailCatcher;
  mailer: Mailer;
  close: () => Promise<void>;
}

/**
 * The real Koa app on loopback, over a fresh database on the test run's real PostgreSQL and the
 * run's real Temporal dev server. With `{ worker: true }` a real worker (the real workflow bundle
 * and activities, a real HTTP sender) runs beside it, as in `npm start`, on a real time-skipping
 * Temporal test server of its own (or the server `temporalAddress` names).
 */
export async function startTestApp(
  overrides: Record<string, string> = {},
  options: {
    worker?: boolean;
    /** A Temporal server the test started (a dev server) instead of the time-skipping one. */
    temporalAddress?: string;
    /**
     * As the production topology runs them (`npm run api`, `npm run worker`): the API in a process
     * of its own, which leaves its deliveries' starts to the worker's, whose client shares the
     * worker's connection (eager start; needs a dev server, `temporalAddress`). Implies `worker`.
     */
    topology?: boolean;
  } = {},
): Promise<TestApp> {
  // Every test app mails for real, to a catcher of its own: sign-up's link, resets, invitations.
  const [db, mail] = await Promise.all([createTestDatabase(), startTestMailCatcher()]);
  // Without a worker nothing skips time: the run's one dev server. A worker gets the time-skipping
  // test server of its own, for the files that await a workflow's end or sleep through its timers.
  const temporalAddress = options.temporalAddress ?? (options.worker ? undefined : sharedDevServerAddress());
  let env: TestWorkflowEnvironment;
  try {
    env = temporalAddress
      ? await TestWorkflowEnvironment.createFromExistingServer({ address: temporalAddress })
      : await createTimeSkippingEnv();
  } catch (error) {
    await Promise.allSettled([db.drop(), mail.stop()]);
    throw error;
  }
  const taskQueue = `test-${randomUUID()}`;
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // Tests call the API faster than a client would: no quotas, but where a test sets its own.
    QUOTA_PER_KEY: '100000',
    QUOTA_PER_SESSION: '100000',
    QUOTA_PER_WORKSPACE: '100000',
    QUOTA_PER_PERSON: '100000',
    MAIL_URL: mail.smtpUrl,
    // Nor a throttle on keys that are not valid (tests send many from 127.0.0.1), where not set.
    API_KEY_FAILURES_PER_ADDRESS: '100000',
    // Nor a bound on invitations (tests invite many people), where not set.
    INVITATIONS_PER_INVITER_PER_HOUR: '100000',
    INVITATIONS_PER_ADDRESS_PER_DAY: '100000',
    ...overrides,
  });
  // With an OTLP endpoint among the overrides, the app traces as `npm start` does (src/tracing/).
  const tracing = startTracing(config);
  const interceptors = tracingClientInterceptors();
  const temporal = {
    connection: env.connection,
    client: interceptors
      ? new Client({ connection: env.connection, namespace: env.namespace ?? 'default', interceptors })
      : env.client,
    namespace: env.namespace ?? 'default',
    taskQueue,
    // The time-skipping test server has no eager start, and eager start needs the worker's
    // connection: the embedded-stack tests cover it.
    eagerStart: false,
  };
  const mailer = new Mailer({ url: config.MAIL_URL!, from: config.MAIL_FROM });
  // Errors are kept for the failure messages of requests that answer 500 (server-errors.ts).
  const recording = recordingLogger();
  const logger = process.env.TEST_LOG_LEVEL ? createLogger(process.env.TEST_LOG_LEVEL) : recording.logger;
  // With a worker, as `npm start` does: one set of services for the API and the worker, sharing the
  // worker's delivery capacity (its dispatcher holds what the fast lane has no room for).
  const withWorker = options.worker || options.topology;
  const capacity = withWorker
    ? createDeliveryCapacity({ config, dataSource: db.dataSource, logger })
    : undefined;
  const metrics = createMetricsRegistry();
  const services = createServices({
    config,
    logger,
    dataSource: db.dataSource,
    temporal,
    capacity: options.topology ? undefined : capacity,
    mailer,
    startedBy: options.topology ? 'worker processes' : 'this process',
    onDeliveryStarted: workflowStartMetrics(metrics),
  });
  // The topology's worker process: its own services and metrics, its client on the worker's connection.
  const workerMetrics = options.topology ? createMetricsRegistry() : undefined;
  const ownWorkerServices = workerMetrics
    ? createServices({
        config,
        logger,
        dataSource: db.dataSource,
        temporal: {
          ...temporal,
          connection: env.nativeConnection,
          // As `npm run worker` builds it (src/temporal/client.ts): with tracing on, its starts are spans.
          client: new Client({
            connection: env.nativeConnection,
            namespace: temporal.namespace,
            interceptors,
          }),
          eagerStart: true,
        },
        capacity,
        startedBy: 'this process',
        onDeliveryStarted: workflowStartMetrics(workerMetrics),
      })
    : undefined;
  const laneObserver = deliveryMetrics(workerMetrics ?? metrics, {
    dataSource: db.dataSource,
    capacity,
    slowLaneSlots: config.DELIVERY_SLOW_LANE_SLOTS,
  });
  const app = createApp({ config, logger, dataSource: db.dataSource, temporal, metrics }, services);
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // PUBLIC_URL must be the address we actually listen on (Origin checks, MCP URLs in snippets).
  Object.assign(config, { PUBLIC_URL: overrides.PUBLIC_URL ?? baseUrl });
  registerMailbox(baseUrl, mail);
  recording.keepFor(baseUrl);

  let stopWorker = async () => undefined;
  let workerServices: Services | undefined;
  if (withWorker) {
    await ensureSearchAttributes(env.connection, temporal.namespace);
    workerServices = ownWorkerServices ?? services;
    // As `npm start` does: loopback receivers are reachable unless OUTBOUND_ALLOWED_CIDRS says otherwise.
    const sender = new HttpSender({ allowedCidrs: allowedCidrsFor(config.OUTBOUND_ALLOWED_CIDRS, true) });
    // The workers of a worker process (the service's task queue and the slow lane's).
    const running = await runWorkers(
      env.nativeConnection,
      {
        namespace: temporal.namespace,
        taskQueue,
        logger,
        lanes: laneSizes(config),
      },
      {
        config,
        logger,
        dataSource: db.dataSource,
        trash: workerServices.trash,
        box: workerServices.box,
        sender,
        resendSteps: workerServices.resendSteps,
        capacity,
        laneObserver,
        held: workerServices.held,
        alerts: workerServices.alerts,
        listeners: workerServices.listenerSender,
      },
      await testWorkflowCode(),
    );
    const stopRelease = startHeldRelease(workerServices.held, logger);
    const stopStarts = options.topology
      ? startWorkerStarts(workerServices.workerStarts, db.url, logger)
      : async () => undefined;
    stopWorker = async () => {
      await stopStarts();
      await stopRelease();
      await running.stop();
      sender.close();
      await workerServices?.listenerSender.close();
    };
  }

  return {
    baseUrl,
    dataSource: db.dataSource,
    config,
    env,
    taskQueue,
    workerServices,
    metrics,
    workerMetrics,
    mail,
    mailer,
    close: async () => {
      unregisterMailbox(baseUrl);
      recording.forget();
      // An open `listen` stream would hold the server open.
      await services.listenerHub.close();
      await new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await stopWorker();
      // Webhook notices being mailed (src/deliveries/alerts/) finish before the mailer closes.
      await services.alerts.idle();
      await env.teardown();
      await db.drop();
      mailer.close();
      await mail.stop();
      await tracing?.shutdown();
    },
  };
}

/**
 * A second API process on the test app's database and Temporal, as the production topology runs
 * two: for what every API process must share (quotas, limits), counted in PostgreSQL.
 */
export async function startSecondApiProcess(
  app: TestApp,
): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const deps = {
    config: app.config,
    logger: createLogger('silent'),
    dataSource: app.dataSource,
    mailer: app.mailer,
    temporal: {
      connection: app.env.connection,
      client: app.env.client,
      namespace: 'default',
      taskQueue: app.taskQueue,
      eagerStart: false,
    },
  };
  const services = createServices(deps);
  const server: Server = createApp(deps, services).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registerMailbox(baseUrl, app.mail);
  return {
    baseUrl,
    close: async () => {
      unregisterMailbox(baseUrl);
      // Its `listen` streams, and their LISTEN connection, if a test opened one here.
      await services.listenerHub.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
