// The embedded stack exactly as `npm start` runs it: the built dist/src/main.js (PostgreSQL, the
// Temporal dev server, migrations, the API and the real worker), in a temporary DATA_DIR on free
// loopback ports, in its own process group so a terminal Ctrl-C reaches only the bench, which
// then stops the stack in order.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { processesMentioning, processTree } from './cpu';
import { sleep } from './stats';

const START_TIMEOUT_MS = 180_000;

/**
 * The benches and the fault run drive the service with one API key (and session) far beyond the default request
 * quotas (docs/security.md, "Limits"): they measure the delivery path, so the quotas are lifted
 * there. The request lines per client and workspace stay as they are.
 */
export const QUOTAS_LIFTED: Record<string, string> = {
  QUOTA_PER_KEY: '100000',
  QUOTA_BURST_PER_KEY: '0',
  QUOTA_PER_WORKSPACE: '100000',
  QUOTA_BURST_PER_WORKSPACE: '0',
  QUOTA_PER_PERSON: '100000',
  QUOTA_BURST_PER_PERSON: '0',
  // bench:log reads the web app's routes with one session as fast as they answer.
  QUOTA_PER_SESSION: '100000',
  QUOTA_BURST_PER_SESSION: '0',
};
const STOP_TIMEOUT_MS = 45_000;
const BANNER = 'CRM webhooks service is running';

/** Whether a process could listen on `port` of 127.0.0.1 now. */
export function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago on 127.0.0.1, for a process that binds it seconds later, and
 * not one of `taken` (ports chosen but not bound yet). It is below the kernel's ephemeral range
 * (32768 and up), where any outgoing connection on the machine can take it first (the tests'
 * embedded PostgreSQL once did not start in CI on a port chosen there), and where the Temporal
 * server could not use it (it stores membership ports in a smallint column).
 */
export async function freePort(taken: Set<number> = new Set()): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await isFree(port))) {
      taken.add(port);
      return port;
    }
  }
}

export interface Stack {
  pid: number;
  baseUrl: string;
  temporalAddress: string;
  namespace: string;
  postgresUrl: string;
  /** The stack's Prometheus metrics (GET). */
  metricsUrl: string;
  /** The JSON API of the stack's mail catcher, where sign-up's link is read (bench/workspace.ts). */
  mailApiUrl: string;
  logFile: string;
  /** SIGINT (the stack stops in order), then SIGKILL whatever is left after a grace period. */
  stop: () => Promise<void>;
  /** Synchronous last resort (process 'exit'): SIGKILL every process of the stack. */
  killNow: () => void;
}

export async function startStack(options: {
  projectRoot: string;
  dataDir: string;
  /** Write V8 CPU profiles of the API+worker process (main and worker threads) here. */
  cpuProfileDir?: string;
  /** More variables for the stack (they win over the bench's own). */
  env?: Record<string, string>;
  /** false: the default request quotas, as a user's stack has them (lifted unless said). */
  liftQuotas?: boolean;
  log: (message: string) => void;
}): Promise<Stack> {
  const [port, postgresPort, temporalPort, uiPort, metricsPort, mailPort, inboxPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: options.dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    EMBEDDED_POSTGRES_PORT: String(postgresPort),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    METRICS_PORT: String(metricsPort),
    MAIL_CATCHER_SMTP_PORT: String(mailPort),
    MAIL_CATCHER_UI_PORT: String(inboxPort),
    ...(options.liftQuotas === false ? {} : QUOTAS_LIFTED),
    ...options.env,
    TEMPORAL_NAMESPACE: 'default',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL: 'bench-admin@example.com',
    ADMIN_PASSWORD: 'bench-admin-password',
  };
  // The embedded stack, whatever this shell points at.
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  delete env.ENCRYPTION_KEY;
  delete env.MAIL_URL;

  const logFile = join(options.dataDir, 'stack.log');
  const logStream = createWriteStream(logFile);
  const nodeArgs = options.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, join(options.projectRoot, 'dist', 'src', 'main.js')],
    { cwd: options.projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const onData = (chunk: Buffer) => {
    logStream.write(chunk);
    if (output.length < 200_000) output += chunk.toString('utf8');
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pid = child.pid!;
  let known = new Set<number>([pid]);
  const remember = () => {
    for (const stat of processTree(pid)) known.add(stat.pid);
  };

  const killNow = () => {
    remember();
    for (const target of new Set([...known, ...processesMentioning(options.dataDir)])) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    known = new Set();
  };

  const stop = async () => {
    remember();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const stopped = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
      if (!stopped) options.log(`the stack did not stop within ${STOP_TIMEOUT_MS / 1000} s: killing it`);
    }
    // Whatever is still there (a stop that timed out, or a crash that left servers behind).
    const leftovers = [...known, ...processesMentioning(options.dataDir)].filter((target) => alive(target));
    for (const target of leftovers) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (leftovers.length) await sleep(500);
    await new Promise<void>((resolve) => logStream.end(resolve));
  };

  options.log(`starting the embedded stack (dist/src/main.js, pid ${pid}) in ${options.dataDir}`);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!output.includes(BANNER)) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the stack exited during start-up:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the stack did not start within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-4000)}`);
    }
    await sleep(100);
  }
  remember();

  const password = readFileSync(join(options.dataDir, 'postgres-password'), 'utf8').trim();
  return {
    pid,
    baseUrl,
    temporalAddress: `127.0.0.1:${temporalPort}`,
    namespace: 'default',
    postgresUrl: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${postgresPort}/crm`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    mailApiUrl: `http://127.0.0.1:${inboxPort}/api/v1`,
    logFile,
    stop,
    killNow,
  };
}

/** Whether a process of this id still exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
