// `npm run topology`: the production topology as processes on this machine (README, "Production
// topology"): PostgreSQL, the real Temporal server on it, two APIs and two workers, with their data
// and logs in TOPOLOGY_DIR (default .topology/, kept between runs). Prints every address; Ctrl-C
// (SIGINT or SIGTERM) stops all of it in reverse order of start.
// Settings: TOPOLOGY_DIR, TOPOLOGY_API_PORT (3000; the second API the next port),
// TOPOLOGY_TEMPORAL_PORT (7233), TOPOLOGY_POSTGRES_PORT (54330), TOPOLOGY_WORKERS (2), and
// OUTBOUND_ALLOWED_CIDRS (default loopback, so local receivers can be reached) and LOG_LEVEL.
import { chmodSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { built, type Component } from '../faults/components';
import { topologyPorts } from './ports';
import { TEMPORAL_SERVER_VERSION, WORKER_REPLICAS } from './spec';
import { startTopology } from './topology';

const PROJECT_ROOT = resolve(__dirname, '..', '..', '..');
const say = (message: string) => process.stdout.write(`[topology] ${message}\n`);

const components: Component[] = [];
let stopping: Promise<void> | undefined;

function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const component of [...components].reverse()) {
      say(`stopping ${component.name}…`);
      await component.stop().catch((error) => say(`stopping ${component.name}: ${String(error)}`));
    }
  })();
  return stopping;
}

let signals = 0;
function onSignal(signal: NodeJS.Signals): void {
  if (++signals > 1) {
    process.stderr.write(`\nSecond ${signal}: killing everything now.\n`);
    for (const component of components) component.killNow();
    process.exit(130);
  }
  process.stderr.write(`\n${signal}: stopping every process in reverse order (again to force)…\n`);
  void stopAll().then(() => {
    say('stopped.');
    process.exit(0);
  });
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('exit', () => {
  for (const component of components) component.killNow();
});

function numberFrom(name: string, fallback: number): number {
  const value = Number(process.env[name] || fallback);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    process.stderr.write(`${name} must be a whole number from 1 to 65535\n`);
    process.exit(2);
  }
  return value;
}

async function main(): Promise<void> {
  const dataDir = resolve(PROJECT_ROOT, process.env.TOPOLOGY_DIR || '.topology');
  mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755); // PostgreSQL runs as its own user when we are root
  const ports = await topologyPorts({
    api: numberFrom('TOPOLOGY_API_PORT', 3000),
    temporal: numberFrom('TOPOLOGY_TEMPORAL_PORT', 7233),
    postgres: numberFrom('TOPOLOGY_POSTGRES_PORT', 54330),
  });
  const { readOrCreateSecret } = built<{ readOrCreateSecret(file: string, bytes?: number): string }>(
    PROJECT_ROOT,
    'embedded/postgres.js',
  );
  const outboundAllowedCidrs = process.env.OUTBOUND_ALLOWED_CIDRS || '127.0.0.0/8,::1/128';
  const topology = await startTopology({
    projectRoot: PROJECT_ROOT,
    dataDir,
    ports,
    workers: numberFrom('TOPOLOGY_WORKERS', WORKER_REPLICAS),
    // Kept with the data, so webhook secrets written by one run are read by the next.
    encryptionKey: readOrCreateSecret(join(dataDir, 'encryption-key'), 32),
    outboundAllowedCidrs,
    logLevel: process.env.LOG_LEVEL || 'info',
    log: say,
    started: (component) => components.push(component),
  });
  const lines = [
    '',
    `Production topology is running (Temporal server ${TEMPORAL_SERVER_VERSION} on PostgreSQL):`,
    ...topology.baseUrls.map(
      (url, k) => `  API ${k + 1}:            ${url}/  (REST ${url}/api/v1, MCP ${url}/api/v1/mcp)`,
    ),
    `  Workers:          ${topology.workers.length} processes (node dist/src/worker.js)`,
    `  Temporal server:  ${topology.temporal.address} (namespace default; no Web UI: compose runs one)`,
    `  PostgreSQL:       ${topology.postgresUrl.replace(/:[^:@/]+@/, ':***@')} (password in ${join(dataDir, 'postgres', 'postgres-password')})`,
    `  Deliveries reach: ${outboundAllowedCidrs} (OUTBOUND_ALLOWED_CIDRS)`,
    `  Mail inbox:       ${topology.mail.inboxUrl} (a local catcher; production sets MAIL_URL to a provider)`,
    `  Data and logs:    ${dataDir} (logs/)`,
    'The first API signs up workspaces at /sign-up. Press Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch(async (error: unknown) => {
  process.stderr.write(
    `\nThe topology did not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  await stopAll();
  process.exit(1);
});
