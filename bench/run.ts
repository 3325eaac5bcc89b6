// `npm run bench`: measures, in one run on this machine, against the embedded stack it starts
// itself (README.md#benchmarks):
//   1. deliveries per second end to end under an open-model load, with write-to-receipt latency,
//   2. the engine on the same Temporal server: its floor (the delivery's engine shape, a no-op attempt)
//      and, with a regular activity and no eager start, an empty and a delivery-shaped workflow,
//   3. the HTTP ceiling (a keep-alive POST loop to the same receiver),
//   4. REST throughput with API-key authentication,
// prints the tables and writes them to BENCHMARKS.md. Bounded in count and time, loopback only;
// stops the stack and removes its temporary directory at the end, on errors and on Ctrl-C.
//
//   5. the closed-loop saturation (deliveries/s with N writes in flight),
//   6. SQL statements per record write and its delivery (PostgreSQL's log_statement=all),
// Settings (environment): BENCH_RATES (writes/s, default 15,25,35,50,75,100,150,200), BENCH_STEP_SECONDS
// (default 20), BENCH_PHASES (statements,http,rest,engine,saturation,deliveries), BENCH_OUTPUT
// (default BENCHMARKS.md),
// BENCH_CPU_PROFILE=<dir> (add --cpu-prof to the API+worker process and summarise it), BENCH_JSON=<file>
// (the results as JSON too), BENCH_PROJECT_ROOT=<dir> (measure another checkout's build),
// BENCH_STACK=topology (the production topology instead: bench/topology/bench.ts, its own section);
// with BENCH_SCALE_OUT=2x1,2x2,2x3,1x2 (APIs x workers) its scale-out (bench/topology/scale-out.ts).
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuBetween, snapshot, type CpuUsage } from './cpu';
import { prepareEngine, type EngineRun, type EngineShape } from './engine';
import { closedLoop, openLoad, recordWriter, type Write } from './load';
import { profileFiles, renderProfileSummary, summarizeProfile } from './profile-summary';
import { CEILING_PATH, HOOK_PATH, BenchReceiver } from './receiver';
import { machine } from './machine';
import { renderResults, sustainedStep, type Results, type StepResult } from './report/report';
import { startStack, type Stack } from './stack';
import { STAGES, StageReader } from './stages';
import { saturation } from './saturation';
import { countStatements } from './statements';
import { ms, num, pct, sleep, summarize, wallMs } from './stats';
import { keepSections } from './report/sections';
import { runTopologyBench, TOPOLOGY_HEADING } from './topology/bench';
import { runScaleOut, SCALE_OUT_HEADING, shapesOf } from './topology/scale-out';
import { FAIRNESS_HEADING } from './fairness/report';
import { LOG_AT_SCALE_HEADING, LOG_HEADING } from './log/heading';
import { TOPOLOGY_FAULTS_HEADING } from './faults/heading';
import { prepareWorkspace } from './workspace';

const BENCH_ROOT = resolve(__dirname, '..', '..');
// The service measured: this checkout's, or another revision's build (npm run bench:compare).
const PROJECT_ROOT = resolve(process.env.BENCH_PROJECT_ROOT ?? BENCH_ROOT);
const BUDGET_S = 400; // the measurements stop stepping up past this (total run under ~7 min)
const SUSTAINED_SHARE = 0.9;
const MAX_IN_FLIGHT_WRITES = 2000;
/** The closed loops' loads: writes in flight for the delivery path, workflows for the engine floor. */
const SATURATION_IN_FLIGHT = [10, 50];
const ENGINE_SHAPES: Record<EngineShape, string> = {
  empty: 'empty workflows (one no-op activity each, no eager start)',
  delivery: 'delivery-shaped workflows (one no-op activity each, no eager start)',
  floor: "floor workflows (the delivery's engine shape: eager start, one no-op local activity)",
};

const settings = {
  rates: (process.env.BENCH_RATES ?? '15,25,35,50,75,100,150,200')
    .split(',')
    .map(Number)
    .filter((rate) => rate > 0 && rate <= 2000)
    .sort((a, b) => a - b),
  stepSeconds: Math.min(120, Math.max(5, Number(process.env.BENCH_STEP_SECONDS ?? 20) || 20)),
  phases: (process.env.BENCH_PHASES ?? 'statements,http,rest,engine,saturation,deliveries')
    .split(',')
    .map((p) => p.trim()),
  output: resolve(BENCH_ROOT, process.env.BENCH_OUTPUT ?? 'BENCHMARKS.md'),
  /** Also write the results as JSON here (npm run bench:compare reads them). */
  json: process.env.BENCH_JSON ? resolve(process.env.BENCH_JSON) : undefined,
  cpuProfileDir: process.env.BENCH_CPU_PROFILE ? resolve(process.env.BENCH_CPU_PROFILE) : undefined,
};

const began = wallMs();
const log = (message: string) =>
  process.stdout.write(`[bench ${((wallMs() - began) / 1000).toFixed(1).padStart(6)} s] ${message}\n`);

// Everything to undo, whatever happens.
let tmp: string | undefined;
let stack: Stack | undefined;
let engine: EngineRun | undefined;
let stages: StageReader | undefined;
let receiver: BenchReceiver | undefined;
let stopping = false;

function removeTmp(): void {
  try {
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    process.stderr.write(`could not remove ${tmp}: ${String(error)}\n`);
  }
  tmp = undefined;
}

let cleaning: Promise<void> | undefined;

/** Stops everything in order; one cleanup whoever asks (the end, an error, a signal). */
function cleanUp(): Promise<void> {
  cleaning ??= stopEverything();
  return cleaning;
}

async function stopEverything(): Promise<void> {
  await stages?.close().catch(() => undefined);
  stages = undefined;
  await engine?.close().catch(() => undefined);
  engine = undefined;
  if (stack) {
    log('stopping the stack…');
    await stack.stop();
    stack = undefined;
  }
  await receiver?.stop().catch(() => undefined);
  receiver = undefined;
  removeTmp();
}

function onSignal(signal: NodeJS.Signals): void {
  if (stopping) {
    process.stderr.write(`\nSecond ${signal}: killing the stack now.\n`);
    stack?.killNow();
    removeTmp();
    process.exit(130);
  }
  stopping = true;
  process.stderr.write(`\n${signal}: stopping the stack and cleaning up (again to force)…\n`);
  void cleanUp().finally(() => process.exit(130));
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('exit', () => {
  // The last resort when something exits without cleanUp (an uncaught error): nothing may survive.
  stack?.killNow();
  removeTmp();
});

/** CPU used between `fromMs` and `toMs` from now (wall), sampled by timers. */
function cpuWindow(fromMs: number, toMs: number): Promise<CpuUsage> {
  return new Promise((resolveUsage) => {
    setTimeout(() => {
      const first = snapshot(stack?.pid);
      setTimeout(() => resolveUsage(cpuBetween(first, snapshot(stack?.pid))), toMs - fromMs);
    }, fromMs);
  });
}

function cpuLine(cpu: CpuUsage): string {
  return (
    `CPU: API+worker ${pct(cpu.groups['api+worker'])}, PostgreSQL ${pct(cpu.groups.postgresql)}, ` +
    `Temporal ${pct(cpu.groups.temporal)}, bench ${pct(cpu.groups.bench)}, machine ${pct(cpu.machine)}` +
    (cpu.foreign >= 5
      ? ` (${pct(cpu.foreign)} not ours${cpu.foreignTop.length ? `: ${cpu.foreignTop.join(', ')}` : ''})`
      : '')
  );
}

async function waitForReceipts(
  writes: Write[],
  timeoutMs: number,
  label: string,
): Promise<{ drained: boolean; unreceived: number; seconds: number }> {
  const started = wallMs();
  let lastLog = started;
  for (;;) {
    const unreceived = writes.filter((w) => w.recordId && !receiver!.arrivals.has(w.recordId)).length;
    const waiting = writes.filter((w) => w.endedAt === undefined).length;
    const now = wallMs();
    if (unreceived === 0 && waiting === 0)
      return { drained: true, unreceived: 0, seconds: (now - started) / 1000 };
    if (now - started > timeoutMs || stopping)
      return { drained: false, unreceived: unreceived + waiting, seconds: (now - started) / 1000 };
    if (now - lastLog >= 5000) {
      lastLog = now;
      log(`${label}: draining, ${unreceived + waiting} writes not received yet`);
    }
    await sleep(100);
  }
}

async function deliveryStep(
  rate: number,
  writer: ReturnType<typeof recordWriter>,
  drainTimeoutMs: number,
): Promise<StepResult> {
  const durationMs = settings.stepSeconds * 1000;
  const rampMs = durationMs / 10;
  log(`deliveries at ${rate} writes/s for ${settings.stepSeconds} s…`);
  const cpu = cpuWindow(Math.max(rampMs, 2000), durationMs);
  const load = await openLoad({
    rate,
    durationMs,
    maxInFlight: MAX_IN_FLIGHT_WRITES,
    send: writer.send,
    onTick: (writes, elapsed) => {
      const received = writes.filter((w) => w.recordId && receiver!.arrivals.has(w.recordId)).length;
      const answered = writes.filter((w) => w.endedAt !== undefined).length;
      log(
        `  ${rate}/s t=${(elapsed / 1000).toFixed(0)} s: ${writes.length} written, ${answered} answered, ${received} received`,
      );
    },
  });
  const endedAt = load.endedAt;
  const windowFrom = load.startedAt + rampMs;
  const achieved = receiver!.arrivedBetween(windowFrom, endedAt) / ((endedAt - windowFrom) / 1000);
  const receivedByEnd = load.writes.filter((w) => {
    const at = w.recordId ? receiver!.arrivals.get(w.recordId) : undefined;
    return at !== undefined && at <= endedAt;
  }).length;
  const failedByEnd = load.writes.filter((w) => w.endedAt !== undefined && w.status !== 201).length;
  const backlogAtEnd = load.writes.length - failedByEnd - receivedByEnd;
  const usage = await cpu;
  const drain = await waitForReceipts(load.writes, drainTimeoutMs, `${rate}/s`);
  const failed = load.writes.filter((w) => w.endedAt !== undefined && w.status !== 201).length;

  const latencies: number[] = [];
  const writeLatencies: number[] = [];
  for (const write of load.writes) {
    if (write.endedAt !== undefined && write.status === 201)
      writeLatencies.push(write.endedAt - write.startedAt);
    const at = write.recordId ? receiver!.arrivals.get(write.recordId) : undefined;
    if (at !== undefined) latencies.push(at - write.startedAt);
  }
  const breakdown = await stages!.breakdown(load.writes, receiver!.arrivals).catch((error: unknown) => {
    log(`could not read the stage times: ${String(error)}`);
    return undefined;
  });
  const errors = failed;
  const sustained =
    achieved >= SUSTAINED_SHARE * rate && errors + load.skipped <= 0.01 * Math.max(1, load.writes.length);
  const step: StepResult = {
    rate,
    durationS: settings.stepSeconds,
    sent: load.writes.length,
    skipped: load.skipped,
    errors,
    achieved,
    backlogAtEnd,
    received: latencies.length,
    unreceived: drain.unreceived,
    drained: drain.drained,
    drainS: drain.seconds,
    sustained,
    latency: summarize(latencies),
    writeLatency: summarize(writeLatencies),
    lag: load.lag,
    cpu: usage,
    stages: breakdown,
  };
  log(
    `  ${rate}/s: achieved ${num(achieved)}/s, backlog at end ${backlogAtEnd}, latency p50 ${ms(step.latency.p50)} ` +
      `p95 ${ms(step.latency.p95)} p99 ${ms(step.latency.p99)}, write answer p50 ${ms(step.writeLatency.p50)}, ` +
      `errors ${errors + load.skipped}, generator lag p99 ${ms(load.lag.p99)} → ${sustained ? 'sustained' : 'NOT sustained'}` +
      (drain.drained
        ? `, drained in ${drain.seconds.toFixed(1)} s`
        : `, ${drain.unreceived} not received after drain`),
  );
  log(`  ${cpuLine(usage)}`);
  if (breakdown)
    log(
      `  stages p50: ${STAGES.map(([name]) => `${name} ${ms(breakdown.stages[name].p50)}`).join(', ')}; ` +
        `${num(breakdown.batchSize.p50, 0)} deliveries per dispatch, one serial start ${ms(breakdown.startInterval.p50)}`,
    );
  return step;
}

async function main(): Promise<void> {
  const results: Results = {
    machine: machine(),
    settings: { stepSeconds: settings.stepSeconds, rates: settings.rates, phases: settings.phases },
    rest: [],
    steps: [],
    saturation: [],
    receiver: { duplicates: 0, badSignatures: 0, unparsable: 0 },
    deliveryStatuses: {},
    notes: [],
    elapsedS: 0,
  };
  const m = results.machine;
  log(
    `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB.toFixed(1)} GiB, Node ${m.node}, load average ${m.loadAverage}`,
  );
  if (Number(m.loadAverage.split(',')[0]) > m.cores * 0.5)
    results.notes.push(`The machine was already busy when the run began (load average ${m.loadAverage}).`);

  tmp = mkdtempSync(join(tmpdir(), 'crm-bench-'));
  chmodSync(tmp, 0o755); // PostgreSQL runs as its own user when we are root
  if (settings.cpuProfileDir) mkdirSync(settings.cpuProfileDir, { recursive: true });

  const secret = randomBytes(24).toString('hex');
  receiver = await new BenchReceiver(secret).start();
  log(`receiver on ${receiver.url}`);
  const stackStartedAt = wallMs();
  stack = await startStack({
    projectRoot: PROJECT_ROOT,
    dataDir: tmp,
    cpuProfileDir: settings.cpuProfileDir,
    log,
  });
  log(
    `stack up in ${((wallMs() - stackStartedAt) / 1000).toFixed(1)} s: API ${stack.baseUrl}, Temporal ${stack.temporalAddress}`,
  );

  const workspace = await prepareWorkspace({
    baseUrl: stack.baseUrl,
    mailApiUrl: stack.mailApiUrl,
    webhookUrl: `${receiver.url}${HOOK_PATH}`,
    secret,
  });
  stages = await StageReader.connect(stack.postgresUrl);
  const writer = recordWriter({
    baseUrl: stack.baseUrl,
    apiKey: workspace.apiKey,
    type: 'deal',
    nameFieldId: workspace.nameFieldId,
  });
  log('workspace, API key and webhook ready; warming up (10 writes/s for 5 s)…');
  const warm = await openLoad({ rate: 10, durationMs: 5000, maxInFlight: 100, send: writer.send });
  const warmDrain = await waitForReceipts(warm.writes, 60_000, 'warm-up');
  if (!warmDrain.drained || !receiver.sample)
    throw new Error(
      `the warm-up deliveries did not arrive (${warmDrain.unreceived} missing); see ${stack.logFile}`,
    );
  log(`warm-up: ${warm.writes.length} deliveries received, ${receiver.sample.body.length} B each`);

  if (settings.phases.includes('statements')) {
    log('SQL statements: 20 writes one after the other, each waiting for its delivery (log_statement=all)…');
    results.statements = await countStatements({
      postgresUrl: stack.postgresUrl,
      logFile: join(tmp, 'postgres.log'),
      writes: 20,
      writeAndReceive: async (index) => {
        const written = await writer.send(1_000_000 + index);
        if (!written.recordId) throw new Error(`a write for the statement count failed (${written.status})`);
        await receiver!.arrivalOf(written.recordId);
      },
    });
    log(
      `  ${num(results.statements.perDelivery, 1)} statements per write and delivery ` +
        `(${results.statements.measured} logged, ${results.statements.idle} in an idle window as long)`,
    );
    for (const entry of results.statements.top)
      log(`    ${num(entry.perDelivery, 1).padStart(5)}  ${entry.statement}`);
  }

  if (settings.phases.includes('http')) {
    const sample = receiver.sample;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(sample.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers[name] = value;
    const concurrency = 4;
    log(`HTTP ceiling: keep-alive POST loop, ${concurrency} connections, ${sample.body.length} B, 10 s…`);
    const cpu = cpuWindow(2000, 12_000);
    const report = await closedLoop({
      url: `${receiver.url}${CEILING_PATH}`,
      method: 'POST',
      headers,
      body: sample.body.toString('utf8'),
      concurrency,
      warmupMs: 2000,
      durationMs: 10_000,
    });
    results.http = { ...report, cpu: await cpu, concurrency, bodyBytes: sample.body.length };
    log(`  ${num(report.rate)} requests/s, p50 ${ms(report.latency.p50)}, p99 ${ms(report.latency.p99)}`);
    log(`  ${cpuLine(results.http.cpu)}`);
  }

  if (settings.phases.includes('rest')) {
    for (const path of ['/api/v1/me', '/api/v1/webhooks']) {
      const concurrency = 4;
      log(`REST: GET ${path} with x-api-key, ${concurrency} keep-alive clients, 8 s…`);
      const cpu = cpuWindow(2000, 10_000);
      const report = await closedLoop({
        url: `${stack.baseUrl}${path}`,
        method: 'GET',
        headers: { 'x-api-key': workspace.apiKey },
        concurrency,
        warmupMs: 2000,
        durationMs: 8000,
      });
      results.rest.push({ ...report, path, cpu: await cpu, concurrency });
      log(`  ${num(report.rate)} requests/s, p50 ${ms(report.latency.p50)}, p99 ${ms(report.latency.p99)}`);
      log(`  ${cpuLine(results.rest[results.rest.length - 1]!.cpu)}`);
    }
  }

  if (settings.phases.includes('engine')) {
    log('engine: bundling the engine workflows and starting two more workers…');
    engine = await prepareEngine({ address: stack.temporalAddress, namespace: stack.namespace });
    // The ceiling is the best of two loads: a small one (little queueing) and a large one. Then the
    // same load with a workflow shaped like a delivery (its search attributes, memo, one upsert).
    // Then the floor, the delivery's engine shape, at the saturation's two loads.
    const runs: { shape: EngineShape; concurrency: number }[] = [
      { shape: 'empty', concurrency: 10 },
      { shape: 'empty', concurrency: 50 },
      { shape: 'delivery', concurrency: 0 },
      ...SATURATION_IN_FLIGHT.map((concurrency) => ({ shape: 'floor' as const, concurrency })),
    ];
    for (const run of runs) {
      const concurrency = run.concurrency || results.engine?.concurrency || 10;
      log(`engine: ${concurrency} concurrent ${ENGINE_SHAPES[run.shape]}, 9 s…`);
      const cpu = cpuWindow(2000, 9000);
      const report = await engine.measure({
        shape: run.shape,
        concurrency,
        warmupMs: 2000,
        durationMs: 7000,
      });
      const usage = await cpu;
      log(
        `  ${num(report.rate)} workflows/s, p50 ${ms(report.latency.p50)}, p99 ${ms(report.latency.p99)}, ${report.failed} failed` +
          (report.starts ? `, ${report.starts.eager} of ${report.starts.total} started eagerly` : '') +
          (run.shape === 'floor' ? `, ${report.unfinished ?? 'unknown'} not completed` : ''),
      );
      log(`  ${cpuLine(usage)}`);
      if (run.shape === 'floor') (results.engineFloor ??= []).push({ ...report, cpu: usage });
      else if (run.shape === 'delivery') results.engineDeliveryShaped = { ...report, cpu: usage };
      else if (!results.engine || report.rate > results.engine.rate)
        results.engine = { ...report, cpu: usage };
    }
    await engine.close();
    engine = undefined;
  }

  if (settings.phases.includes('saturation')) {
    for (const inFlight of SATURATION_IN_FLIGHT) {
      log(`saturation: ${inFlight} writes in flight, each waiting for its delivery, 3 s + 15 s…`);
      const cpu = cpuWindow(3000, 18_000);
      const report = await saturation({
        inFlight,
        warmupMs: 3000,
        durationMs: 15_000,
        send: writer.send,
        arrivalOf: (recordId) => receiver!.arrivalOf(recordId),
      });
      results.saturation.push({ ...report, cpu: await cpu });
      log(
        `  ${num(report.rate)} deliveries/s, p50 ${ms(report.latency.p50)}, p99 ${ms(report.latency.p99)}, ` +
          `${report.failedWrites} failed writes, ${report.lost} lost`,
      );
      // Let what is still queued drain before the next measure.
      await sleep(3000);
    }
  }

  const deliveriesStartedAt = wallMs();
  if (settings.phases.includes('deliveries')) {
    const elapsed = () => (wallMs() - began) / 1000;
    const fits = () => elapsed() + settings.stepSeconds + 10 <= BUDGET_S;
    const drainMs = () => Math.max(10, Math.min(60, BUDGET_S - elapsed() - settings.stepSeconds)) * 1000;
    let lastSustained: number | undefined;
    for (const rate of settings.rates) {
      if (stopping) break;
      if (!fits()) {
        results.notes.push(
          `Stopped stepping up before ${rate}/s: the run's time budget (${BUDGET_S} s) was spent.`,
        );
        break;
      }
      const step = await deliveryStep(rate, writer, drainMs());
      results.steps.push(step);
      if (step.sustained) {
        lastSustained = rate;
        if (!step.drained) {
          results.notes.push(`The backlog of ${rate}/s did not drain; stopped stepping up.`);
          break;
        }
        continue;
      }
      // The first rate that is not sustained: one step between it and the last sustained one,
      // when the gap is wide, the backlog drained and time is left.
      const middle = lastSustained ? Math.round((lastSustained + rate) / 2 / 5) * 5 : undefined;
      if (middle && rate / lastSustained! >= 1.5 && middle > lastSustained! && step.drained && fits()) {
        const refined = await deliveryStep(middle, writer, drainMs());
        results.steps.push(refined);
      }
      break;
    }
    results.steps.sort((a, b) => a.rate - b.rate);
    results.deliveryStatuses = await stages.deliveryStatuses();
  }
  writer.close();
  results.receiver = {
    duplicates: receiver.duplicates,
    badSignatures: receiver.badSignatures,
    unparsable: receiver.unparsable,
  };
  const deliveriesEndedAt = wallMs();

  const profiledFrom = (deliveriesStartedAt - stackStartedAt) / 1000;
  const profiledTo = (deliveriesEndedAt - stackStartedAt) / 1000;
  await cleanUp();
  results.elapsedS = (wallMs() - began) / 1000;

  if (!sustainedStep(results) && results.steps.length)
    results.notes.push('No rate was sustained: lower BENCH_RATES to find the sustained rate.');
  // The sections measured apart (BENCH_STACK=topology, npm run bench:fairness) stay.
  const previous = existsSync(settings.output) ? readFileSync(settings.output, 'utf8') : '';
  const text = keepSections(renderResults(results), previous, [
    TOPOLOGY_HEADING,
    SCALE_OUT_HEADING,
    TOPOLOGY_FAULTS_HEADING,
    FAIRNESS_HEADING,
    LOG_HEADING,
    LOG_AT_SCALE_HEADING,
  ]);
  writeFileSync(settings.output, text);
  if (settings.json) writeFileSync(settings.json, JSON.stringify(results));
  process.stdout.write(`\n${text}\n`);
  log(`wrote ${settings.output}`);

  if (settings.cpuProfileDir) {
    const files = profileFiles(settings.cpuProfileDir);
    log(
      `CPU profiles of the API+worker process (${files.length} files in ${settings.cpuProfileDir}); main thread ` +
        `restricted to the delivery steps (${profiledFrom.toFixed(0)}–${profiledTo.toFixed(0)} s after start):`,
    );
    for (const file of files) {
      const main = /\.0\.\d+\.cpuprofile$/.test(file);
      const summary = summarizeProfile(
        file,
        main ? { fromMs: profiledFrom * 1000, toMs: profiledTo * 1000 } : undefined,
      );
      if (summary.totalMs > 100) process.stdout.write(`\n${renderProfileSummary(summary, 25)}\n`);
    }
  }
}

const run =
  process.env.BENCH_STACK === 'topology' && process.env.BENCH_SCALE_OUT
    ? () =>
        runScaleOut({
          projectRoot: PROJECT_ROOT,
          output: settings.output,
          shapes: shapesOf(process.env.BENCH_SCALE_OUT!),
          rates: process.env.BENCH_RATES ? settings.rates : [15, 25],
          stepSeconds: settings.stepSeconds,
          machine: machine(),
          log,
        })
    : process.env.BENCH_STACK === 'topology'
      ? () =>
          runTopologyBench({
            projectRoot: PROJECT_ROOT,
            output: settings.output,
            rates: settings.rates,
            stepSeconds: settings.stepSeconds,
            machine: machine(),
            log,
          })
      : main;
run().then(
  () => process.exit(0),
  async (error: unknown) => {
    process.stderr.write(
      `\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    if (stack) {
      try {
        process.stderr.write(
          `\nlast lines of the stack's log:\n${readFileSync(stack.logFile, 'utf8').slice(-3000)}\n`,
        );
      } catch {
        // no log
      }
    }
    await cleanUp().catch(() => undefined);
    process.exit(stopping ? 130 : 1);
  },
);
