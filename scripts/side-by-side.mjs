#!/usr/bin/env node
// `node scripts/side-by-side.mjs <npm script>...`: runs the npm scripts side by side, not one after
// the other, so every one of them runs even when another fails (the web app's type errors are not
// hidden behind the service's), and a two-core machine keeps both cores busy. Each script's output is
// printed whole when it ends, in the order given, so their lines never interleave; the exit code is
// the first failure's. `npm run lint` and `npm run typecheck` are made of it.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/side-by-side.mjs <npm script>...\n');
  process.exit(2);
}

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

const results = await Promise.all(scripts.map(run));
for (const { script, code, output } of results) {
  process.stdout.write(`> ${script}${code ? ` (failed, exit code ${code})` : ''}\n`);
  process.stdout.write(Buffer.concat(output));
}
const failed = results.find((result) => result.code !== 0);
process.exit(failed ? failed.code : 0);
