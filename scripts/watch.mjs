#!/usr/bin/env node
// `npm run watch`: keeps dist/ current while you edit, the two halves of `npm run build` in watch mode:
//   - tsc -p tsconfig.build.json --watch   (the service, workflows, activities → dist/),
//   - vite build --watch                   (the web app → dist/web, type-checked on each rebuild).
// Restart `node dist/src/main.js` (or api.js / worker.js) to run the new server code; the API reads
// dist/web on every request, so a reload of the page shows the new web app. The workflow bundle is
// not rebuilt: a worker finds it older than the compiled code and bundles workflows/ at start.
// A small script rather than `a & b` in package.json: with `&`, Ctrl-C can leave the background
// watcher running, and one watcher dying would go unnoticed.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const watchers = [
  {
    name: 'tsc',
    bin: join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    args: ['-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'],
  },
  { name: 'vite', bin: join(root, 'node_modules', 'vite', 'bin', 'vite.js'), args: ['build', '--watch'] },
];

let stopping = false;
const children = watchers.map(({ name, bin, args }) => {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    // Ctrl-C in a terminal reaches the watchers too (one process group): a normal stop.
    if (stopping || signal === 'SIGINT' || signal === 'SIGTERM') return stop(0);
    console.error(`[watch] ${name} stopped (${signal ?? `exit code ${code}`}); stopping the other watcher`);
    stop(code || 1);
  });
  return child;
});

function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  process.exitCode = exitCode;
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
