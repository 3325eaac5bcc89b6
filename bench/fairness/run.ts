// `npm run bench:fairness`: what one workspace's broken endpoint does to another workspace's
// deliveries (issue 23). Each scenario runs on a fresh embedded stack (bench/fairness/scenario.ts);
// the results go to the `## Fairness` section of BENCHMARKS.md, the rest of the file kept.
//
// Settings (environment): FAIRNESS_SCENARIOS (default idle,hang:10,hang:50,hang:100,burst:100,
// slow:50@1000,slow:50,fast:50,refuse:50,flood:32; slow:RATE@MS answers well after MS, 4.9 s unless
// said; also hang-many:RATExWEBHOOKS, RATE writes a second each delivered to WEBHOOKS endpoints that
// never answer; and the floods of issue 34 with the default quotas, N requests in flight: mcp-batch:N
// (JSON-RPC batches of 100 create_record), app-flood:N (/app/api writes with A's session),
// workspaces:N (A starts 25 more workspaces and writes from up to 9)), FAIRNESS_SECONDS (each scenario's load, default 60),
// FAIRNESS_B_INTERVAL_MS (B's pause between writes, default 500), BENCH_OUTPUT (default BENCHMARKS.md),
// BENCH_JSON=<file> (the results as JSON too), BENCH_PROJECT_ROOT=<dir> (measure another checkout's build).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { machine } from '../machine';
import { withSection } from '../report/sections';
import { ms, wallMs } from '../stats';
import { describeLoad, FAIRNESS_HEADING, renderFairness } from './report';
import { parseScenario, runScenario, type ScenarioResult } from './scenario';
import { runMain } from '../run-main';

const BENCH_ROOT = resolve(__dirname, '..', '..', '..');
const PROJECT_ROOT = resolve(process.env.BENCH_PROJECT_ROOT ?? BENCH_ROOT);

const settings = {
  scenarios: (
    process.env.FAIRNESS_SCENARIOS ??
    'idle,hang:10,hang:50,hang:100,burst:100,slow:50@1000,slow:50,fast:50,refuse:50,flood:32'
  )
    .split(',')
    .map((name) => parseScenario(name.trim())),
  durationS: Math.min(600, Math.max(10, Number(process.env.FAIRNESS_SECONDS ?? 60) || 60)),
  bIntervalMs: Math.max(50, Number(process.env.FAIRNESS_B_INTERVAL_MS ?? 500) || 500),
  output: resolve(BENCH_ROOT, process.env.BENCH_OUTPUT ?? 'BENCHMARKS.md'),
  json: process.env.BENCH_JSON ? resolve(process.env.BENCH_JSON) : undefined,
};

const began = wallMs();
const log = (message: string) =>
  process.stdout.write(`[fairness ${((wallMs() - began) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);

function revision(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const results: ScenarioResult[] = [];
  const onMachine = machine();
  log(`${onMachine.cpuModel}, ${onMachine.cores} cores, load average ${onMachine.loadAverage}`);
  for (const scenario of settings.scenarios) {
    log(`scenario ${scenario.name}: starting a fresh stack…`);
    const result = await runScenario(scenario, {
      projectRoot: PROJECT_ROOT,
      durationS: settings.durationS,
      bIntervalMs: settings.bIntervalMs,
      log,
    });
    results.push(result);
    log(
      `  ${describeLoad(result)}: B p50 ${ms(result.b.p50)}, p99 ${ms(result.b.p99)}, max ${ms(result.b.max)}` +
        (result.a
          ? `; A ${result.a.writes} writes, ${result.a.deliveries} deliveries, ${result.a.requests} requests seen ` +
            `(${result.a.maxOpen} at once), ` +
            (result.a.keptUp
              ? `not started at the end ${result.a.keptUp.notStartedAtEnd}, delivered in the grace ` +
                `${result.a.keptUp.deliveredInGrace}/${result.a.keptUp.deliveries}, `
              : '') +
            `retries ${result.a.schedule.retries} (${result.a.schedule.early} early, ${result.a.schedule.late} late)`
          : '') +
        `; machine ${Math.round(result.cpu.machine)}%; B's slowest: ` +
        result.bWorst
          .map((worst) => `${ms(worst.ms)} (write ${ms(worst.writeMs)}) at ${worst.atS.toFixed(1)} s`)
          .join(', '),
    );
    for (const worst of result.bWorst)
      if (worst.stages) log(`    ${ms(worst.ms)} at ${worst.atS.toFixed(1)} s: ${worst.stages}`);
  }
  const section = renderFairness({
    machine: onMachine,
    revision: revision(),
    durationS: settings.durationS,
    bIntervalMs: settings.bIntervalMs,
    scenarios: results,
  });
  const previous = existsSync(settings.output) ? readFileSync(settings.output, 'utf8') : '# Benchmarks\n';
  writeFileSync(settings.output, withSection(previous, FAIRNESS_HEADING, section));
  if (settings.json) writeFileSync(settings.json, JSON.stringify(results));
  process.stdout.write(`\n${section}\n`);
  log(`wrote the ${FAIRNESS_HEADING} section of ${settings.output}`);
}

runMain(main);
