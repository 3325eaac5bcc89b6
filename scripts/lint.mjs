#!/usr/bin/env node
// `npm run lint`: ESLint, the import layers (dependency-cruiser) and the formatting (prettier), run
// side by side rather than one after the other: ESLint is one thread busy for most of the run, so
// on a two-core machine prettier and dependency-cruiser take the other core (a cold run, as on CI,
// went from 32 s to about the ESLint part alone). Each step's output is printed whole when it ends,
// in this order, so the steps' lines never interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const steps = ['lint:eslint', 'lint:imports', 'lint:format'];

function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: [Buffer.from(String(error))] }));
    child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output }));
  });
}

const results = await Promise.all(steps.map(run));
for (const { script, code, output } of results) {
  process.stdout.write(`> ${script}${code ? ` (failed, exit code ${code})` : ''}\n`);
  process.stdout.write(Buffer.concat(output));
}
const failed = results.find((result) => result.code !== 0);
process.exit(failed ? failed.code : 0);
