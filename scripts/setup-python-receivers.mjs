#!/usr/bin/env node
// Prepares the Python the receiver tests run (test/receivers/standard-webhooks.test.ts): a virtual
// environment in .cache/python-receivers with the published `standardwebhooks` package from PyPI,
// pinned with its hashes in test/receivers/requirements.txt. `npm test` runs it (pretest), and the
// test runs it too, so `npx jest test/receivers` works on a fresh machine.
// Idempotent: when the environment already holds exactly these requirements it does nothing. The
// last line printed is the environment's python. Needs python3 with its venv module
// (Debian: apt-get install python3-venv); PYTHON names another interpreter.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const requirements = join(root, 'test/receivers/requirements.txt');
const venv = join(root, '.cache/python-receivers');
const python = join(venv, 'bin/python');
const stamp = join(venv, 'requirements.sha256');

/** Runs a command, its output shown; fails the setup with `hint` when it fails. */
function run(command, args, hint) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`setup-python-receivers: ${command} ${args.join(' ')} failed. ${hint}`);
    process.exit(1);
  }
}

const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
if (existsSync(python) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === wanted) {
  console.log(python);
  process.exit(0);
}

rmSync(venv, { recursive: true, force: true });
const interpreter = process.env.PYTHON || 'python3';
run(interpreter, ['-m', 'venv', venv], 'Install Python 3.9+ with its venv module (python3-venv).');
run(
  python,
  ['-m', 'pip', 'install', '--quiet', '--no-deps', '--require-hashes', '-r', requirements],
  'pip could not install test/receivers/requirements.txt from PyPI (is the network there?).',
);
writeFileSync(stamp, `${wanted}\n`);
console.log(python);
