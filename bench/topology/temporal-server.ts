// The real Temporal server (go.temporal.io/server/cmd/server) on PostgreSQL, as one process running
// its four services, configured by environment variables through its embedded template (what the
// temporalio/server image runs). A component like the others of the fault run: start, SIGKILL,
// orderly stop. Ready once its frontend answers and the namespace exists (registered if missing).
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { status as grpcStatus } from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { killGroup, withTimeout, type Component, type Log } from '../faults/components';
import { sleep, wallMs } from '../stats';
import { NAMESPACE_RETENTION_HOURS } from './spec';

const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 20_000;

export class TemporalServer implements Component {
  readonly name = 'Temporal server';
  unplannedRestarts = 0;
  private child: ChildProcess | undefined;
  private closed = false;

  constructor(
    private readonly options: {
      binary: string;
      /** The server's variables (spec.ts temporalServerEnv); nothing else of ours reaches it. */
      env: Record<string, string>;
      address: string;
      namespace: string;
      logFile: string;
      log: Log;
    },
  ) {}

  get address(): string {
    return this.options.address;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('the run is stopping');
    const logFd = openSync(this.options.logFile, 'a');
    const child = spawn(this.options.binary, ['--allow-no-auth', 'start'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        LOG_LEVEL: 'warn',
        ...this.options.env,
      },
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
    closeSync(logFd);
    this.child = child;
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        reject(new Error(`the Temporal server exited (${code ?? signal}):\n${tail(this.options.logFile)}`));
      }),
    );
    exited.catch(() => undefined);
    await Promise.race([this.untilServing(), exited]);
  }

  /** The frontend answers, and the namespace exists (a fresh database has none but the system's). */
  private async untilServing(): Promise<void> {
    const deadline = wallMs() + READY_TIMEOUT_MS;
    let lastError: unknown;
    while (wallMs() < deadline && !this.closed) {
      try {
        const connection = await Connection.connect({ address: this.options.address, connectTimeout: '2s' });
        try {
          await ensureNamespace(connection, this.options.namespace);
          return;
        } finally {
          await connection.close();
        }
      } catch (error) {
        lastError = error;
        await sleep(500);
      }
    }
    throw new Error(
      `the Temporal server did not serve within ${READY_TIMEOUT_MS / 1000} s: ${String(lastError)}\n` +
        tail(this.options.logFile),
    );
  }

  async fault(): Promise<void> {
    const child = this.child;
    if (!child) throw new Error('the Temporal server is not running');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child.pid!, 'SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    this.closed = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child.pid!, 'SIGTERM');
    await withTimeout(exited, STOP_GRACE_MS, 'the Temporal server did not stop').catch(() => {
      killGroup(child.pid!, 'SIGKILL');
    });
  }

  killNow(): void {
    this.closed = true;
    if (this.child?.pid) killGroup(this.child.pid, 'SIGKILL');
  }
}

/** Registers the namespace when missing, then waits until the frontend knows it. */
async function ensureNamespace(connection: Connection, namespace: string): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace });
    return;
  } catch (error) {
    if ((error as { code?: number }).code !== grpcStatus.NOT_FOUND) throw error;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(`${NAMESPACE_RETENTION_HOURS}h`),
    });
  } catch (error) {
    if ((error as { code?: number }).code !== grpcStatus.ALREADY_EXISTS) throw error;
  }
  // The frontend's namespace cache refreshes every few seconds: describe fails until then.
  await connection.workflowService.describeNamespace({ namespace });
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
