// What the topology benches measure, whatever its shape: a started topology with a receiver and a
// workspace whose one webhook matches every deal written, open-model steps and closed loops with
// the CPU of each component (bench.ts: two APIs and two workers; scale-out.ts: 1–3 workers, 1–2 APIs).
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Component } from '../faults/components';
import { treeCpuBetween, treeSnapshot } from '../cpu';
import { openLoad, recordWriter, type Write } from '../load';
import type { Machine } from '../report/report';
import { BenchReceiver, HOOK_PATH } from '../receiver';
import { saturation, type SaturationReport } from '../saturation';
import { ms, num, pct, sleep, summarize, wallMs, type Summary } from '../stats';
import { prepareWorkspace } from '../workspace';
import {
  activityBetween,
  databaseActivity,
  postgresByDatabase,
  postgresCpuBetween,
  type DatabaseActivity,
} from './postgres-cpu';
import { startLoopbackTopology, type Topology } from './topology';

export interface Starts {
  eager: number;
  total: number;
}

export interface TopologyStep {
  rate: number;
  sent: number;
  errors: number;
  achieved: number;
  latency: Summary;
  sustained: boolean;
  cpu: { trees: Record<string, number>; machine: number };
  /** PostgreSQL's CPU by database (Temporal's two, the service's) and its background processes. */
  postgres: Record<string, number>;
  /** What each database committed and wrote during the step (after the ramp), and its receipts. */
  activity: { databases: DatabaseActivity; receipts: number };
  /** The step's delivery starts, summed over the workers, and how many ran their first task eagerly. */
  starts: Starts;
}

export type ClosedLoopRun = SaturationReport & {
  cpu: Record<string, number>;
  machine: number;
  postgres: Record<string, number>;
};

/** What every topology bench is told by bench/run.ts. */
export interface TopologyBenchOptions {
  projectRoot: string;
  output: string;
  rates: number[];
  stepSeconds: number;
  machine: Machine;
  log: (message: string) => void;
}

/** The load average now, as the report writes it. */
export const loadAverageNow = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

export interface TopologyRun {
  topology: Topology;
  receiver: BenchReceiver;
  send: (index: number) => Promise<{ status: number; recordId?: string }>;
  close: () => void;
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

export function componentPids(topology: Topology): Record<string, number | undefined> {
  return {
    PostgreSQL: topology.postgres.pid,
    'Temporal server': topology.temporal.pid,
    ...Object.fromEntries(topology.apis.map((api) => [api.name, api.pid])),
    ...Object.fromEntries(topology.workers.map((worker) => [worker.name, worker.pid])),
  };
}

export function cpuLine(trees: Record<string, number>): string {
  return Object.entries(trees)
    .map(([name, used]) => `${name} ${pct(used)}`)
    .join(', ');
}

/**
 * Starts a topology of this shape in a temporary folder, a receiver and a workspace, warms it up,
 * runs `body`, and stops everything (also on SIGINT/SIGTERM).
 */
export async function withTopology<T>(
  options: {
    projectRoot: string;
    apis?: number;
    workers?: number;
    log: (message: string) => void;
  },
  body: (run: TopologyRun) => Promise<T>,
): Promise<T> {
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
  const killAll = () => components.forEach((component) => component.killNow());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAll);
  try {
    const topology = await startLoopbackTopology({
      projectRoot: options.projectRoot,
      dataDir: tmp,
      log,
      apis: options.apis,
      workers: options.workers,
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
    const run: TopologyRun = {
      topology,
      receiver,
      send: (index) => writers[index % writers.length]!.send(index),
      close: () => writers.forEach((writer) => writer.close()),
    };
    log(`warming up (10 writes/s for 5 s, through ${writers.length === 1 ? 'the API' : 'every API'})…`);
    const warm = await openLoad({ rate: 10, durationMs: 5000, maxInFlight: 100, send: run.send });
    await warm.settled;
    await drain(run, warm.writes, 60_000);
    if (received(run, warm.writes) < warm.writes.length)
      throw new Error(
        `the warm-up deliveries did not arrive (${received(run, warm.writes)} of ${warm.writes.length})`,
      );
    try {
      return await body(run);
    } finally {
      run.close();
    }
  } finally {
    log('stopping the topology…');
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', killAll);
  }
}

const received = (run: TopologyRun, writes: Write[]) =>
  writes.filter((write) => write.recordId && run.receiver.arrivals.has(write.recordId)).length;

async function drain(run: TopologyRun, writes: Write[], timeoutMs: number): Promise<void> {
  const deadline = wallMs() + timeoutMs;
  while (received(run, writes) < writes.filter((w) => w.recordId).length && wallMs() < deadline)
    await sleep(200);
}

/**
 * The components' CPU and PostgreSQL's by database, from now (or from restart()) until end(): what
 * a step, a closed loop or the floor measures once its ramp is over.
 */
export function componentCpu(topology: Topology) {
  const take = () => ({
    trees: treeSnapshot(componentPids(topology)),
    postgres: postgresByDatabase(topology.postgres.pid),
  });
  let first = take();
  return {
    restart: () => {
      first = take();
    },
    end: () => {
      const last = take();
      return {
        cpu: treeCpuBetween(first.trees, last.trees),
        postgres: postgresCpuBetween(first.postgres, last.postgres),
      };
    },
  };
}

/** Open-model steps at each rate (writes spread over the APIs), until one is not sustained. */
export async function openSteps(
  run: TopologyRun,
  options: { rates: number[]; stepSeconds: number; log: (message: string) => void },
): Promise<TopologyStep[]> {
  const { topology, receiver } = run;
  const steps: TopologyStep[] = [];
  for (const rate of options.rates) {
    const durationMs = options.stepSeconds * 1000;
    const rampMs = durationMs / 10;
    options.log(`deliveries at ${rate} writes/s for ${options.stepSeconds} s…`);
    const window = componentCpu(topology);
    let firstActivity: Promise<DatabaseActivity> = databaseActivity(topology.postgresUrl);
    setTimeout(() => {
      window.restart();
      firstActivity = databaseActivity(topology.postgresUrl);
    }, rampMs);
    const startsBefore = await workerStarts(topology.workerMetricsUrls);
    const load = await openLoad({ rate, durationMs, maxInFlight: 2000, send: run.send });
    const { cpu, postgres } = window.end();
    const databases = activityBetween(await firstActivity, await databaseActivity(topology.postgresUrl));
    const from = load.startedAt + rampMs;
    const receipts = receiver.arrivedBetween(from, load.endedAt);
    const achieved = receipts / ((load.endedAt - from) / 1000);
    await load.settled;
    await drain(run, load.writes, 60_000);
    const after = await workerStarts(topology.workerMetricsUrls);
    const starts = { eager: after.eager - startsBefore.eager, total: after.total - startsBefore.total };
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
      postgres,
      activity: { databases, receipts },
      starts,
    };
    steps.push(step);
    options.log(
      `  ${rate}/s: achieved ${num(achieved)}/s, p50 ${ms(step.latency.p50)} p99 ${ms(step.latency.p99)}, ` +
        `errors ${errors} → ${step.sustained ? 'sustained' : 'NOT sustained'}; CPU ${cpuLine(cpu.trees)}; ` +
        `${starts.eager} of ${starts.total} workflow starts eager`,
    );
    if (!step.sustained) break;
  }
  return steps;
}

/** Closed loops: N writes in flight, each waiting for its delivery, 3 s + 15 s each. */
export async function closedLoops(
  run: TopologyRun,
  options: { inFlight: number[]; log: (message: string) => void },
): Promise<ClosedLoopRun[]> {
  const { topology, receiver } = run;
  const loops: ClosedLoopRun[] = [];
  for (const inFlight of options.inFlight) {
    options.log(`saturation: ${inFlight} writes in flight, each waiting for its delivery, 3 s + 15 s…`);
    const window = componentCpu(topology);
    setTimeout(window.restart, 3000);
    const report = await saturation({
      inFlight,
      warmupMs: 3000,
      durationMs: 15_000,
      send: run.send,
      arrivalOf: (recordId) => receiver.arrivalOf(recordId),
    });
    const { cpu, postgres } = window.end();
    loops.push({ ...report, cpu: cpu.trees, machine: cpu.machine, postgres });
    options.log(
      `  ${num(report.rate)} deliveries/s, p50 ${ms(report.latency.p50)}; CPU ${cpuLine(cpu.trees)}`,
    );
    await sleep(3000);
  }
  return loops;
}
