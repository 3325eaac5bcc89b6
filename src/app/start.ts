import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { NativeConnection } from '@temporalio/worker';
import { ConfigError, loadConfig, type Config } from '../config';
import { createDataSource, runMigrations } from './db/data-source';
import { startEmbeddedPostgres } from '../embedded/postgres';
import { resolveEncryptionKey } from '../security/encryption-key';
import { startTemporalDevServer, type RunningDevServer } from '../embedded/temporal-dev-server';
import { startMailCatcher, type RunningMailCatcher } from '../embedded/mail-catcher';
import { mailCatcherBinary } from '../embedded/mail-catcher-binary';
import { Mailer } from '../mail/mailer';
import { createApp } from './http-app';
import { closeServer, listen, PortInUseError } from '../http/server';
import { createLogger, type Logger } from '../logger';
import { temporalBinaries } from '../temporal/binaries';
import { connectTemporal } from '../temporal/client';
import { ensureSearchAttributes } from '../temporal/search-attributes';
import { installTemporalRuntime } from '../temporal/runtime';
import { laneSizes, startWorker } from './temporal-worker';
import { createServices, identityHooks } from './services';
import { HttpSender } from '../deliveries/engine/http-sender';
import { allowedCidrsFor } from '../deliveries/engine/outbound-guard';
import { createDeliveryCapacity } from '../deliveries/capacity/delivery-capacity';
import { deliveryMetrics } from '../deliveries/capacity/delivery-metrics';
import { createMetricsRegistry } from '../metrics/registry';
import { serveMetrics } from '../metrics/metrics-server';
import { startTracing } from '../tracing/tracing';
import { startWorkerJobs } from './worker-jobs';
import { workflowStartMetrics } from '../deliveries/engine/start-metrics';
import { ensureDemoWorkspace, type CreatedWorkspace } from '../identity/bootstrap';
import { Lifecycle } from '../runtime/lifecycle';
import { assertPortFree } from '../runtime/ports';
import { ownListeners } from './own-listeners';

export interface StartOptions {
  /** Serve REST, MCP and the web app. */
  api: boolean;
  /** Run a Temporal worker. */
  worker: boolean;
  /** Start PostgreSQL and/or Temporal locally when DATABASE_URL / TEMPORAL_ADDRESS are unset. */
  embedded: boolean;
}

/** What a person needs to see on start, one line each. */
function say(message: string): void {
  process.stdout.write(`${message}\n`);
}

/**
 * Starts the roles asked for. Embedded mode (`npm start`) brings up whatever dependency is not
 * configured; external mode (`npm run api`, `npm run worker`) requires both to be configured.
 */
export async function start(options: StartOptions): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL, { role: roleName(options) });
  const lifecycle = new Lifecycle(logger);
  lifecycle.stopOnSignals(() => {
    say('Stopped.');
    process.exit(0);
  });

  try {
    await run(config, logger, lifecycle, options);
  } catch (error) {
    await lifecycle.stop();
    if (error instanceof PortInUseError || error instanceof ConfigError) fail(error.message);
    logger.fatal({ err: error }, 'start-up failed');
    fail(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function run(
  config: Config,
  logger: Logger,
  lifecycle: Lifecycle,
  options: StartOptions,
): Promise<void> {
  const embedPostgres = !config.DATABASE_URL;
  const embedTemporal = !config.TEMPORAL_ADDRESS;
  // The embedded stack catches its own mail unless MAIL_URL names a real server (docs/mail.md).
  const mailpit =
    options.embedded && !config.MAIL_URL
      ? mailCatcherBinary({ MAILPIT_BINARY: config.MAILPIT_BINARY })
      : undefined;
  if (!options.embedded && (embedPostgres || embedTemporal)) {
    throw new ConfigError(
      `Invalid configuration: ${embedPostgres ? 'DATABASE_URL' : 'TEMPORAL_ADDRESS'} is required for ` +
        `\`npm run ${roleName(options)}\` (external mode); use \`npm start\` for the embedded stack`,
    );
  }

  await Promise.all([
    options.api ? assertPortFree(config.PORT, config.HOST, 'PORT', 'the API') : undefined,
    embedPostgres
      ? assertPortFree(
          config.EMBEDDED_POSTGRES_PORT,
          '127.0.0.1',
          'EMBEDDED_POSTGRES_PORT',
          'embedded PostgreSQL',
        )
      : undefined,
    embedTemporal
      ? assertPortFree(config.TEMPORAL_PORT, '127.0.0.1', 'TEMPORAL_PORT', 'Temporal')
      : undefined,
    embedTemporal
      ? assertPortFree(config.TEMPORAL_UI_PORT, '127.0.0.1', 'TEMPORAL_UI_PORT', 'the Temporal Web UI')
      : undefined,
    config.METRICS_PORT
      ? assertPortFree(config.METRICS_PORT, config.METRICS_HOST, 'METRICS_PORT', 'the metrics')
      : undefined,
    mailpit
      ? assertPortFree(
          config.MAIL_CATCHER_SMTP_PORT,
          '127.0.0.1',
          'MAIL_CATCHER_SMTP_PORT',
          'the mail catcher',
        )
      : undefined,
    mailpit
      ? assertPortFree(config.MAIL_CATCHER_UI_PORT, '127.0.0.1', 'MAIL_CATCHER_UI_PORT', 'the mail inbox')
      : undefined,
  ]);
  if (embedPostgres || embedTemporal || mailpit) mkdirSync(config.DATA_DIR, { recursive: true, mode: 0o755 });
  config.ENCRYPTION_KEY = resolveEncryptionKey(config, options.embedded);
  // A signed-up account can do nothing until it opens the link mailed to it: an API without mail
  // would admit nobody new (docs/mail.md). The worker sends no mail.
  if (options.api && !options.embedded && !config.MAIL_URL) {
    throw new ConfigError(
      'Invalid configuration: MAIL_URL is required for `npm run api` (external mode): the SMTP server ' +
        "that mails sign-up's, password reset's and invitations' links (docs/mail.md)",
    );
  }

  // All start side by side; wait for all before failing, so nothing is left starting while
  // the lifecycle cleans up.
  const [postgres, temporalServer, mailServer] = await Promise.allSettled([
    embedPostgres ? startPostgres(config, lifecycle) : config.DATABASE_URL!,
    embedTemporal ? startTemporal(config, lifecycle) : undefined,
    mailpit ? startMail(config, mailpit, lifecycle) : undefined,
  ]);
  if (postgres.status === 'rejected') throw postgres.reason;
  if (temporalServer.status === 'rejected') throw temporalServer.reason;
  if (mailServer.status === 'rejected') throw mailServer.reason;
  const databaseUrl = postgres.value;
  const embeddedTemporal = temporalServer.value;
  const mailCatcher = mailServer.value;
  const temporalAddress = embeddedTemporal?.address ?? config.TEMPORAL_ADDRESS!;
  config.TEMPORAL_UI_URL ??= embeddedTemporal?.uiUrl;
  config.MAIL_URL ??= mailCatcher?.smtpUrl;
  const mailer = config.MAIL_URL ? new Mailer({ url: config.MAIL_URL, from: config.MAIL_FROM }) : undefined;
  if (mailer) lifecycle.add('mailer', async () => mailer.close());
  else logger.warn('MAIL_URL is not set and there is no mail catcher: no mail is sent (docs/mail.md)');

  // Before the Temporal client, the worker and the API, which add their spans only when it is on;
  // stopped last, so the spans of everything stopping before it are exported.
  const tracing = startTracing(config);
  if (tracing) lifecycle.add('tracing', tracing.shutdown);

  const dataSource = createDataSource({ url: databaseUrl, poolSize: config.DATABASE_POOL_SIZE });
  await dataSource.initialize();
  lifecycle.add('database pool', () => dataSource.destroy());
  let demo: CreatedWorkspace | undefined;
  if (options.embedded) {
    const applied = await runMigrations(dataSource);
    if (applied.length > 0) say(`Applied migrations: ${applied.join(', ')}`);
    demo = await ensureDemoWorkspace(
      dataSource,
      {
        email: config.ADMIN_EMAIL,
        password: config.ADMIN_PASSWORD,
      },
      identityHooks,
    );
  }

  // A process that runs a worker shares one connection between it and the client, so the
  // workflows this process starts can be eager (docs/engine.md).
  const sharedWithWorker = options.worker;
  if (sharedWithWorker) installTemporalRuntime(logger);
  const temporal = await connectTemporal(
    temporalAddress,
    config.TEMPORAL_NAMESPACE,
    config.TEMPORAL_TASK_QUEUE,
    { sharedWithWorker },
  );
  lifecycle.add('temporal client', () => temporal.connection.close());
  const added = await ensureSearchAttributes(temporal.connection, config.TEMPORAL_NAMESPACE);
  if (added.length > 0) logger.info({ added }, 'registered Temporal search attributes');

  // A worker process's delivery capacity: its lanes' budgets and what it knows of each endpoint,
  // shared by its worker and its dispatcher (which holds deliveries the fast lane has no room for).
  const capacity = options.worker ? createDeliveryCapacity({ config, dataSource, logger }) : undefined;
  const metrics = createMetricsRegistry();
  const laneObserver = deliveryMetrics(metrics, {
    dataSource,
    capacity,
    slowLaneSlots: config.DELIVERY_SLOW_LANE_SLOTS,
  });
  // One set of services per process, shared by the API and the worker of the embedded stack. A
  // process without a worker leaves its deliveries' starts to the worker processes, where they are
  // eager (docs/topology.md#eager-start).
  const services = createServices({
    config,
    logger,
    dataSource,
    temporal,
    capacity,
    mailer,
    startedBy: options.worker ? 'this process' : 'worker processes',
    onDeliveryStarted: workflowStartMetrics(metrics),
  });
  // Stopped before the database pool: a dispatch pass in flight finishes first.
  lifecycle.add('dispatcher', () => services.dispatcher.idle());
  lifecycle.add('webhook notices being mailed', () => services.alerts.idle());

  if (options.worker) {
    say('Starting the Temporal worker…');
    // Embedded (`npm start`) reaches loopback receivers by default; external mode reaches no
    // private or loopback address unless OUTBOUND_ALLOWED_CIDRS opens it (docs/deliveries.md).
    const sender = new HttpSender({
      allowedCidrs: allowedCidrsFor(config.OUTBOUND_ALLOWED_CIDRS, options.embedded),
      // As many connections as the lanes may have attempts in flight, so none waits for one (many
      // webhooks, of many workspaces, can share a receiver's origin).
      maxSocketsPerReceiver: config.DELIVERY_FAST_LANE_SLOTS + config.DELIVERY_SLOW_LANE_SLOTS,
      ownListeners: await ownListeners(config, {
        postgresPort: embedPostgres ? config.EMBEDDED_POSTGRES_PORT : undefined,
        temporalPorts: embeddedTemporal?.ports(),
        mailCatcherPorts: mailCatcher?.ports(),
      }),
    });
    lifecycle.add('delivery sender', async () => sender.close());
    const worker = await startWorker(
      {
        address: temporalAddress,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        logger,
        lanes: laneSizes(config),
      },
      {
        config,
        logger,
        dataSource,
        trash: services.trash,
        box: services.box,
        sender,
        resendSteps: services.resendSteps,
        capacity,
        laneObserver,
        held: services.held,
        alerts: services.alerts,
        listeners: services.listenerSender,
      },
      temporal.connection instanceof NativeConnection ? temporal.connection : undefined,
    );
    lifecycle.add('worker', worker.stop);
    lifecycle.add('listen answers', () => services.listenerSender.close());
    for (const [name, stop] of startWorkerJobs({ services, dataSource, databaseUrl, config, logger, mailer }))
      lifecycle.add(name, stop);
    worker.done.catch((error) => {
      logger.fatal({ err: error }, 'the worker stopped unexpectedly');
      void lifecycle.stop().then(() => process.exit(1));
    });
  }

  let server: Server | undefined;
  if (options.api) {
    server = await listen(
      createApp({ config, logger, dataSource, temporal, metrics }, services),
      config.PORT,
      config.HOST,
    );
    lifecycle.add('api', () => closeServer(server!));
    // Before the server closes: an open `listen` stream would hold it open (the commands reconnect).
    lifecycle.add('listen streams', () => services.listenerHub.close());
  }

  let metricsUrl: string | undefined;
  if (config.METRICS_PORT) {
    const served = await serveMetrics(metrics, {
      host: config.METRICS_HOST,
      port: config.METRICS_PORT,
      logger,
    });
    lifecycle.add('metrics', served.close);
    metricsUrl = served.url;
  }

  const demoSignIn = demo
    ? [
        '',
        `Created "${demo.workspace.name}" with its first Admin. Sign in at ${config.PUBLIC_URL}/sign-in as:`,
        `  email:    ${demo.adminEmail}`,
        `  password: ${demo.generatedPassword ?? '(ADMIN_PASSWORD)'}${demo.generatedPassword ? '   (shown once)' : ''}`,
        '',
      ]
    : [];
  printBanner(config, options, {
    temporalUiUrl: embeddedTemporal?.uiUrl,
    metricsUrl,
    mail: mailCatcher ? { inboxUrl: mailCatcher.inboxUrl } : { smtpUrl: config.MAIL_URL },
    demoSignIn,
  });
}

async function startPostgres(config: Config, lifecycle: Lifecycle): Promise<string> {
  const postgres = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_POSTGRES_PORT,
    database: 'crm',
    onProgress: say,
  });
  lifecycle.add('embedded postgres', postgres.stop);
  return postgres.url;
}

async function startTemporal(config: Config, lifecycle: Lifecycle): Promise<RunningDevServer> {
  const server = await startTemporalDevServer({
    cli: temporalBinaries().cli,
    dataDir: config.DATA_DIR,
    port: config.TEMPORAL_PORT,
    uiPort: config.TEMPORAL_UI_PORT,
    namespace: config.TEMPORAL_NAMESPACE,
    onProgress: say,
  });
  lifecycle.add('temporal dev server', server.stop);
  return server;
}

async function startMail(config: Config, binary: string, lifecycle: Lifecycle): Promise<RunningMailCatcher> {
  const catcher = await startMailCatcher({
    binary,
    dataDir: config.DATA_DIR,
    smtpPort: config.MAIL_CATCHER_SMTP_PORT,
    uiPort: config.MAIL_CATCHER_UI_PORT,
    keepMessages: true,
    onProgress: say,
  });
  lifecycle.add('mail catcher', catcher.stop);
  return catcher;
}

/** Where mail goes, for the banner: the catcher's inbox, or the SMTP server without its credentials. */
function mailLine(mail: { inboxUrl?: string; smtpUrl?: string }): string {
  if (mail.inboxUrl) return `  Mail inbox:       ${mail.inboxUrl}`;
  if (!mail.smtpUrl)
    return '  Mail:             not sent (no MAIL_URL and no mail catcher; see docs/mail.md)';
  const url = new URL(mail.smtpUrl);
  return `  Mail via:         ${url.protocol}//${url.host}`;
}

function printBanner(
  config: Config,
  options: StartOptions,
  shown: {
    temporalUiUrl: string | undefined;
    metricsUrl: string | undefined;
    mail: { inboxUrl?: string; smtpUrl?: string };
    demoSignIn: string[];
  },
): void {
  const { temporalUiUrl, metricsUrl, demoSignIn } = shown;
  const lines = [''];
  lines.push(
    `CRM webhooks service is running (${options.embedded ? 'embedded' : 'external'} mode, ${roleName(options)})`,
  );
  if (options.api) {
    lines.push(`  Web app:          ${config.PUBLIC_URL}/`);
    lines.push(`  REST API:         ${config.PUBLIC_URL}/api/v1`);
    lines.push(`  MCP endpoint:     ${config.PUBLIC_URL}/api/v1/mcp`);
    lines.push(`  Health:           ${config.PUBLIC_URL}/healthz`);
  }
  if (metricsUrl) lines.push(`  Metrics:          ${metricsUrl}`);
  if (temporalUiUrl)
    lines.push(`  Temporal Web UI:  ${temporalUiUrl}/namespaces/${config.TEMPORAL_NAMESPACE}/workflows`);
  lines.push(mailLine(shown.mail));
  if (options.embedded) lines.push(`  Data directory:   ${config.DATA_DIR}`);
  // One write, its last line last: whoever waits for "Press Ctrl-C" has read the sign-in too.
  lines.push(...demoSignIn, 'Press Ctrl-C to stop.');
  say(lines.join('\n'));
}

function roleName(options: StartOptions): string {
  if (options.api && options.worker) return 'api + worker';
  return options.api ? 'api' : 'worker';
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
