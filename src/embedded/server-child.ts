import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { logTail } from './log-tail';
import { stopChild } from './stop-child';

export interface ServerChild {
  child: ChildProcess;
  /** Rejects, with the tail of the log, once the child exits: raced against its readiness. */
  exited: Promise<never>;
  /** Stops the child: SIGTERM, then SIGKILL after `graceMs`. */
  stop: (graceMs: number) => Promise<void>;
}

/**
 * util-linux's `setpriv`, which sets the kernel's parent-death signal and then runs the command:
 * the child gets SIGTERM when we die, however we die (SIGKILL, a test runner's worker killed), which
 * no exit hook of ours can promise. Linux only; elsewhere the exit hook is all there is.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find(
  (path) => process.platform === 'linux' && existsSync(path),
);

/** The command line that runs `command` so that it dies with this process, where the system allows. */
function dyingWithUs(command: string, args: string[]): [string, string[]] {
  return SETPRIV ? [SETPRIV, ['--pdeathsig', 'TERM', '--', command, ...args]] : [command, args];
}

/**
 * Starts a server we run beside the service (the Temporal dev server, the mail catcher) with its
 * output appended to `logFile`. The child is in its own process group so a terminal Ctrl-C reaches
 * only us, and we stop it after the worker and the API; it dies with us if we exit first, even
 * killed. (The parent-death signal follows the thread that spawned: call this from the main thread.)
 */
export function spawnServerChild(
  /** How the errors name it, e.g. "The mail catcher". */
  name: string,
  command: string,
  args: string[],
  logFile: string,
): ServerChild {
  const logFd = openSync(logFile, 'a');
  const child = spawn(...dyingWithUs(command, args), { stdio: ['ignore', logFd, logFd], detached: true });
  closeSync(logFd);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}); see ${logFile}:\n${logTail(logFile)}`)),
    ),
  );
  exited.catch(() => undefined);
  return {
    child,
    exited,
    stop: async (graceMs) => {
      process.removeListener('exit', killOnExit);
      await stopChild(child, graceMs);
    },
  };
}
