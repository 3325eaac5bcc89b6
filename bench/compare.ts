// `npm run bench:compare -- <revision>`: the same bench, one run right after the other on this
// machine, against another revision's build (the baseline, built in a temporary git worktree) and
// against this checkout; then the ratios of the measures that matter side by side, with each run's
// load average, written to BENCHMARKS.md under "Before and after" (the rest of the file is this
// checkout's run). Both runs use this checkout's load generator, so only the service differs.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { renderComparison } from './report/compare-report';
import type { Results } from './report/report';

const ROOT = resolve(__dirname, '..', '..');
const log = (message: string) => process.stdout.write(`[bench:compare] ${message}\n`);

function git(args: string[]): string {
  const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Runs a command with its output shown, prefixed; rejects on a non-zero exit. */
function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  return new Promise<void>((resolveRun, reject) => {
    const child = spawn(command, args, { ...options, stdio: 'inherit' });
    child.once('exit', (code, signal) =>
      code === 0 ? resolveRun() : reject(new Error(`${command} ${args.join(' ')}: ${code ?? signal}`)),
    );
  });
}

async function bench(label: string, projectRoot: string, json: string, output: string): Promise<Results> {
  log(`${label}: npm run bench against ${projectRoot}…`);
  await run(process.execPath, [join(ROOT, 'dist', 'bench', 'run.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_PROJECT_ROOT: projectRoot,
      BENCH_JSON: json,
      BENCH_OUTPUT: output,
    },
  });
  return JSON.parse(readFileSync(json, 'utf8')) as Results;
}

async function main(): Promise<void> {
  const revision = process.argv[2];
  if (!revision) throw new Error('usage: npm run bench:compare -- <git revision, e.g. main or a commit>');
  const baselineCommit = git(['rev-parse', '--verify', `${revision}^{commit}`]);
  const currentCommit = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const work = mkdtempSync(join(tmpdir(), 'crm-bench-compare-'));
  const baselineRoot = join(work, 'baseline');
  try {
    log(`building ${revision} (${baselineCommit.slice(0, 10)}) in ${baselineRoot} (a minute or two)…`);
    git(['worktree', 'add', '--detach', baselineRoot, baselineCommit]);
    symlinkSync(join(ROOT, 'node_modules'), join(baselineRoot, 'node_modules'));
    if (existsSync(join(ROOT, '.temporal-binaries.json')))
      writeFileSync(
        join(baselineRoot, '.temporal-binaries.json'),
        readFileSync(join(ROOT, '.temporal-binaries.json')),
      );
    await run('npm', ['run', 'build', '--silent'], { cwd: baselineRoot });

    const output = join(ROOT, 'BENCHMARKS.md');
    const before = await bench('before', baselineRoot, join(work, 'before.json'), join(work, 'before.md'));
    const after = await bench('after', ROOT, join(work, 'after.json'), output);
    const text = renderComparison({
      before: { label: revision, commit: baselineCommit, results: before },
      after: {
        label: dirty ? 'this checkout (uncommitted changes)' : 'this checkout',
        commit: currentCommit,
        results: after,
      },
    });
    const current = readFileSync(output, 'utf8');
    writeFileSync(output, `${text}\n${current}`);
    process.stdout.write(`\n${text}\n`);
    log(`wrote the comparison at the top of ${output}`);
  } finally {
    spawnSync('git', ['worktree', 'remove', '--force', baselineRoot], { cwd: ROOT });
    rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `\nbench:compare failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
