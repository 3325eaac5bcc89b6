// Brings the service up for the fault run as an operator runs it in external mode: PostgreSQL and
// the Temporal dev server, migrations (`node dist/src/migrate.js`), then the API and the worker
// as two processes; and the workspace the run writes to, made through the real API.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { prepareWorkspace } from '../workspace';
import { MailCatcher, NodeRole, Postgres, TemporalDevServer, type Component, type Log } from './components';
import { QUOTAS_LIFTED } from '../stack';

export interface Service {
  postgres: Postgres;
  temporal: TemporalDevServer;
  api: NodeRole;
  worker: NodeRole;
  baseUrl: string;
  /** Where the API's mail is caught (MAIL_URL points at it), read through this JSON API. */
  mailApiUrl: string;
}

export async function startService(options: {
  projectRoot: string;
  /** A folder of the run's temporary directory (created). */
  dir: (name: string) => string;
  ports: { pg: number; temporal: number; ui: number; api: number; smtp: number; inbox: number };
  log: Log;
  /** Told of each component as soon as it exists, so a failed start still stops it. */
  started: (component: Component) => void;
}): Promise<Service> {
  const { projectRoot, dir, ports, log } = options;
  const postgres = new Postgres({ projectRoot, dataDir: dir('pg'), port: ports.pg, log });
  const temporal = new TemporalDevServer({
    projectRoot,
    dataDir: dir('temporal'),
    port: ports.temporal,
    uiPort: ports.ui,
    log,
  });
  // External mode needs an SMTP server (MAIL_URL); a local catcher stands in for the provider's.
  const mail = new MailCatcher({
    projectRoot,
    dataDir: dir('mail'),
    smtpPort: ports.smtp,
    uiPort: ports.inbox,
  });
  options.started(postgres);
  options.started(temporal);
  options.started(mail);
  log('starting PostgreSQL, the Temporal dev server and a mail catcher…');
  await Promise.all([postgres.start(), temporal.start(), mail.start()]);

  const baseUrl = `http://127.0.0.1:${ports.api}`;
  const env = roleEnv({
    DATABASE_URL: postgres.url,
    TEMPORAL_ADDRESS: temporal.address,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: String(ports.api),
    PUBLIC_URL: baseUrl,
    MAIL_URL: mail.smtpUrl,
    DATA_DIR: dir('app'),
    LOG_LEVEL: 'warn',
    // External mode reaches no loopback address unless allowed; the receiver is on loopback.
    OUTBOUND_ALLOWED_CIDRS: '127.0.0.0/8',
  });
  log('applying migrations (node dist/src/migrate.js)…');
  await promisify(execFile)(process.execPath, [join(projectRoot, 'dist', 'src', 'migrate.js')], {
    env,
    timeout: 120_000,
  });
  const logs = dir('logs');
  const api = new NodeRole('API', {
    script: join(projectRoot, 'dist', 'src', 'api.js'),
    env,
    logFile: join(logs, 'api.log'),
    ready: async () => (await fetch(`${baseUrl}/healthz`).catch(() => undefined))?.ok === true,
    log,
  });
  const worker = new NodeRole('worker', {
    script: join(projectRoot, 'dist', 'src', 'worker.js'),
    env,
    logFile: join(logs, 'worker.log'),
    log,
  });
  options.started(api);
  options.started(worker);
  log('starting the API and the worker (node dist/src/api.js, node dist/src/worker.js)…');
  await Promise.all([api.start(), worker.start()]);
  return { postgres, temporal, api, worker, baseUrl, mailApiUrl: mail.apiUrl };
}

/** The caller's environment without what points a role elsewhere, and `values`. */
export function roleEnv(values: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Only what this run sets: nothing from the caller's shell points the roles elsewhere.
  const unset = ['TEMPORAL_UI_URL', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE', 'TRUST_PROXY', 'NODE_ENV'];
  for (const name of [...unset, 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) delete env[name];
  // The roles share one host: each would claim the same metrics port.
  return { ...env, METRICS_PORT: 'none', ...QUOTAS_LIFTED, ...values };
}

export interface RunWorkspace {
  apiKey: string;
  nameFieldId: string;
  workspaceId: string;
  /** The deal type, which the run writes. */
  typeId: string;
  /** The webhook bench/workspace.ts made. */
  webhookId: string;
  /** Every webhook that receives record.created (the first is `webhookId`). */
  webhookIds: string[];
}

/**
 * A workspace with an API key and `webhooks` webhooks receiving record.created on the receiver: each
 * write is delivered to each of them by one dispatch, rows that share their creation time, which
 * paging must still list once each. Eight more webhooks, on an event the run never emits, give the
 * webhooks list pages too.
 */
export async function prepareRun(options: {
  baseUrl: string;
  mailApiUrl: string;
  receiverUrl: string;
  webhooks: number;
}): Promise<RunWorkspace> {
  const { baseUrl, receiverUrl } = options;
  const secret = randomBytes(16).toString('hex');
  const workspace = await prepareWorkspace({
    baseUrl,
    mailApiUrl: options.mailApiUrl,
    webhookUrl: `${receiverUrl}/hook`,
    secret,
  });
  const headers = { 'x-api-key': workspace.apiKey, 'content-type': 'application/json' };
  const me = (await (await fetch(`${baseUrl}/api/v1/me`, { headers })).json()) as {
    workspace: { id: string };
  };
  const model = (await (
    await fetch(`${baseUrl}/api/v1/model/read`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'deal' }),
    })
  ).json()) as { type: { id: string } };

  const createWebhook = async (url: string, event: string): Promise<string> => {
    const response = await fetch(`${baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url, events: [event] }),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`creating a webhook answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { id: string }).id;
  };
  const webhookIds = [workspace.webhookId];
  for (let i = 1; i < options.webhooks; i++)
    webhookIds.push(await createWebhook(`${receiverUrl}/hook-${i}`, 'record.created'));
  for (let i = 0; i < 8; i++) await createWebhook(`${receiverUrl}/idle-${i}`, 'record.deletedPermanently');

  return {
    apiKey: workspace.apiKey,
    nameFieldId: workspace.nameFieldId,
    workspaceId: me.workspace.id,
    typeId: model.type.id,
    webhookId: workspace.webhookId,
    webhookIds,
  };
}
