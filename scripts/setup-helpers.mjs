// Shared by the setup scripts (setup-temporal.mjs, setup-mail-catcher.mjs): finding a program on
// PATH and running a long build with a heartbeat.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function onPath(name) {
  for (const dir of (process.env.PATH || '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Runs a long command, printing a heartbeat through `log` so a person sees it is alive. */
export function runWithProgress(log, label, command, args, options) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setInterval(() => {
      log(`${label}: still working (${Math.round((Date.now() - started) / 1000)} s)`);
    }, 20_000);
    child.on('error', (error) => {
      clearInterval(timer);
      resolve({ ok: false, output: String(error) });
    });
    child.on('close', (code) => {
      clearInterval(timer);
      log(`${label}: ${code === 0 ? 'done' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s`);
      resolve({ ok: code === 0, output });
    });
  });
}
