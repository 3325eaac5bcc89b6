// The results of one run as text: the tables printed at the end and written to BENCHMARKS.md, and
// a short "what limits it" drawn from what the run observed.
import { cpuMsPer, GROUP_LABELS, GROUPS, type CpuUsage, type Group } from '../cpu';
import type { EngineReport } from '../engine';
import type { SaturationReport } from '../saturation';
import type { StatementCount } from '../statements';
import type { ClosedLoopReport } from '../load';
import { STAGES, type StageBreakdown } from '../stages';
import { ms, num, pct, table, type Summary } from '../stats';

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  kernel: string;
  date: string;
  loadAverage: string;
}

export interface StepResult {
  rate: number;
  durationS: number;
  sent: number;
  skipped: number;
  errors: number;
  /** Receipts per second in the step's window after its ramp-up. */
  achieved: number;
  backlogAtEnd: number;
  received: number;
  unreceived: number;
  drained: boolean;
  drainS: number;
  sustained: boolean;
  latency: Summary;
  writeLatency: Summary;
  lag: Summary;
  cpu: CpuUsage;
  stages?: StageBreakdown;
}

/** An engine load's report with the CPU its window used. */
export type EngineResult = EngineReport & { cpu: CpuUsage };

export interface Results {
  machine: Machine;
  settings: { stepSeconds: number; rates: number[]; phases: string[] };
  http?: ClosedLoopReport & { cpu: CpuUsage; concurrency: number; bodyBytes: number };
  rest: (ClosedLoopReport & { path: string; cpu: CpuUsage; concurrency: number })[];
  /** The engine ceiling, regular activity, no eager start: an empty workflow, the better N. */
  engine?: EngineResult;
  /** The same engine load with a workflow shaped like a delivery (search attributes, memo, upsert). */
  engineDeliveryShaped?: EngineResult;
  /** The engine floor at each N: the delivery's engine shape, its attempt a no-op (absent before issue 23). */
  engineFloor?: EngineResult[];
  steps: StepResult[];
  /** Closed-loop saturation: deliveries/s with exactly N writes in flight. */
  saturation: (SaturationReport & { cpu: CpuUsage })[];
  /** SQL statements per record write and its delivery (log_statement=all). */
  statements?: StatementCount;
  receiver: { duplicates: number; badSignatures: number; unparsable: number };
  deliveryStatuses: Record<string, number>;
  notes: string[];
  elapsedS: number;
}

export function sustainedStep(results: Results): StepResult | undefined {
  return results.steps.filter((step) => step.sustained).sort((a, b) => b.rate - a.rate)[0];
}

export function peakStep(results: Results): StepResult | undefined {
  return [...results.steps].sort((a, b) => b.achieved - a.achieved)[0];
}

function cpuCells(cpu: CpuUsage): string[] {
  return [
    ...GROUPS.filter((group) => group !== 'other').map((group) => pct(cpu.groups[group])),
    pct(cpu.machine),
    pct(cpu.foreign),
  ];
}

const CPU_HEADER = ['API+worker', 'PostgreSQL', 'Temporal', 'bench', 'machine', 'not ours'];

export function renderResults(results: Results): string {
  const out: string[] = [];
  const sustained = sustainedStep(results);
  const peak = peakStep(results);
  const m = results.machine;

  out.push('# Benchmarks', '');
  out.push(
    'Written by `npm run bench` (bench/run.ts): one run against the embedded stack it starts itself ' +
      '(`dist/src/main.js`: PostgreSQL, the Temporal dev server, the API and the real worker) in a temporary ' +
      'DATA_DIR on free loopback ports, with a loopback receiver (node:http, keep-alive, 200 at once, ' +
      'signature checked). Everything ran on the one machine below, load generator included.',
    '',
  );
  out.push('## Machine', '');
  out.push(
    table(
      ['', ''],
      [
        ['CPU', m.cpuModel],
        ['cores', String(m.cores)],
        ['memory', `${m.memoryGiB.toFixed(1)} GiB`],
        ['Node.js', m.node],
        ['kernel', m.kernel],
        ['date', m.date],
        ['load average before the run', m.loadAverage],
        ['run time', `${Math.round(results.elapsedS)} s`],
      ],
    ),
    '',
  );

  out.push('## Summary', '');
  const rows: string[][] = [];
  const sustainedRate = sustained?.achieved ?? Number.NaN;
  rows.push([
    'Deliveries/s sustained end to end (record write → signed POST received)',
    sustained ? `${num(sustained.achieved)} /s (offered ${sustained.rate}/s)` : 'none of the rates',
  ]);
  if (peak && peak !== sustained)
    rows.push(['Peak receipt rate under overload', `${num(peak.achieved)} /s (offered ${peak.rate}/s)`]);
  if (sustained)
    rows.push([
      `Write-to-receipt latency at ${sustained.rate}/s (p50 / p95 / p99)`,
      `${ms(sustained.latency.p50)} / ${ms(sustained.latency.p95)} / ${ms(sustained.latency.p99)}`,
    ]);
  if (results.engineFloor?.length)
    rows.push([
      "Engine floor: the delivery's engine shape, its attempt a no-op (eager start, local activity)",
      results.engineFloor.map((run) => `${num(run.rate)} workflows/s (N = ${run.concurrency})`).join(', '),
    ]);
  if (results.engine)
    rows.push([
      'Engine, regular activity, no eager start: empty workflow + one no-op activity',
      `${num(results.engine.rate)} workflows/s (concurrency ${results.engine.concurrency})`,
    ]);
  if (results.engineDeliveryShaped)
    rows.push([
      'Engine, regular activity, no eager start: delivery-shaped (search attributes, memo, one upsert)',
      `${num(results.engineDeliveryShaped.rate)} workflows/s (concurrency ${results.engineDeliveryShaped.concurrency})`,
    ]);
  if (results.http)
    rows.push([
      `HTTP ceiling (keep-alive POST loop, ${results.http.bodyBytes} B body)`,
      `${num(results.http.rate)} requests/s (${results.http.concurrency} connections)`,
    ]);
  for (const rest of results.rest)
    rows.push([
      `REST \`GET ${rest.path}\` with x-api-key (p50 / p99)`,
      `${num(rest.rate)} requests/s (${ms(rest.latency.p50)} / ${ms(rest.latency.p99)}, ${rest.concurrency} clients)`,
    ]);
  const best = [...results.saturation].sort((a, b) => b.rate - a.rate)[0];
  if (best)
    rows.push([
      'Closed-loop saturation (most deliveries/s with N writes in flight)',
      `${num(best.rate)} /s (N = ${best.inFlight}; p50 ${ms(best.latency.p50)}, p99 ${ms(best.latency.p99)})`,
    ]);
  if (results.statements)
    rows.push([
      'SQL statements per record write and its delivery',
      `${num(results.statements.perDelivery, 1)} (log_statement=all, ${results.statements.writes} writes)`,
    ]);
  const floor = bestFloor(results);
  if (floor) {
    if (results.steps.length)
      rows.push(['Deliveries/s sustained ÷ engine floor (best N)', ratio(sustainedRate, floor.rate)]);
    for (const [run, floorRun] of closedLoopsWithFloor(results))
      rows.push([
        `Closed-loop deliveries/s ÷ engine floor, N = ${run.inFlight}`,
        ratio(run.rate, floorRun.rate),
      ]);
  } else if (results.engine)
    rows.push([
      'Deliveries/s ÷ engine, regular activity, no eager start',
      ratio(sustainedRate, results.engine.rate),
    ]);
  if (results.http) rows.push(['Deliveries/s ÷ HTTP ceiling', ratio(sustainedRate, results.http.rate)]);
  out.push(table(['measure', 'result'], rows), '');

  if (results.steps.length) {
    out.push('## Deliveries under an open-model load', '');
    out.push(
      `A constant arrival rate of \`POST /api/v1/records/deal\` (x-api-key) for ${results.settings.stepSeconds} s ` +
        'per rate, each write matching exactly one webhook (record.created, with a secret), whatever the ' +
        'earlier writes are doing. Latency runs from the write request starting to the signed POST arriving ' +
        'at the receiver; achieved counts receipts per second after the first 10% of the step; backlog is ' +
        'the writes not yet received when the step ended. A rate is sustained when achieved ≥ 90% of offered ' +
        'and writes do not fail. Between rates the backlog drains.',
      '',
    );
    out.push(
      table(
        [
          'offered/s',
          'achieved/s',
          'backlog at end',
          'p50',
          'p95',
          'p99',
          'write answer p50 / p99',
          'write errors',
          'generator lag p99',
          'sustained',
        ],
        results.steps.map((step) => [
          String(step.rate),
          num(step.achieved),
          String(step.backlogAtEnd),
          latencyCell(step, step.latency.p50),
          latencyCell(step, step.latency.p95),
          latencyCell(step, step.latency.p99),
          `${ms(step.writeLatency.p50)} / ${ms(step.writeLatency.p99)}`,
          String(step.errors + step.skipped),
          ms(step.lag.p99),
          step.sustained
            ? 'yes'
            : `no${step.drained ? '' : ` (${step.unreceived} not received after ${Math.round(step.drainS)} s)`}`,
        ]),
      ),
      '',
    );

    out.push('### Where the time goes (p50 of each stage, from the rows the service writes)', '');
    out.push(
      table(
        [
          'offered/s',
          ...STAGES.map(([name]) => name),
          'deliveries per dispatch (p50 / max)',
          'one serial start (p50)',
        ],
        results.steps.map((step) => [
          String(step.rate),
          ...STAGES.map(([name]) => (step.stages ? ms(step.stages.stages[name].p50) : '–')),
          step.stages ? `${num(step.stages.batchSize.p50, 0)} / ${num(step.stages.batchSize.max, 0)}` : '–',
          step.stages ? ms(step.stages.startInterval.p50) : '–',
        ]),
      ),
      '',
    );
    out.push(
      [
        ...STAGES.map(([name, what]) => `- ${name}: ${what}.`),
        '- deliveries per dispatch: deliveries made by one dispatching statement (same dispatched_at).',
        '- one serial start: the gap between consecutive workflow starts of one dispatch, i.e. what one ' +
          'start (and its workflow_started_at update) costs while the dispatcher starts them one after the ' +
          'other; 1000 ms ÷ this is the most workflows one dispatcher can start per second.',
      ].join('\n'),
      '',
    );
    out.push(
      '_The stages use the API process clock for occurred_at, workflow_started_at and the attempt start, ' +
        'PostgreSQL transaction start times for dispatched_at, and the bench clock at both ends (one machine, ' +
        "one clock). workflow_started_at is written after the start call returns, so a fast workflow's " +
        '"workflow started → POST sent" can be negative._',
      '',
    );

    out.push('### CPU while under load (% of one core; the machine has ' + `${m.cores * 100}%)`, '');
    out.push(
      table(
        ['offered/s', ...CPU_HEADER],
        results.steps.map((step) => [String(step.rate), ...cpuCells(step.cpu)]),
      ),
      '',
    );
    out.push(
      'CPU per delivery (ms of CPU per record write and its delivery, at the achieved rate; less sensitive ' +
        'to other work on the machine than the rates):',
      '',
    );
    out.push(
      table(
        ['offered/s', 'API+worker', 'PostgreSQL', 'Temporal', 'bench', 'total'],
        results.steps.map((step) => {
          const per = cpuPerDelivery(step);
          return [
            String(step.rate),
            ...(['api+worker', 'postgresql', 'temporal', 'bench'] as const).map(
              (group) => `${per[group].toFixed(1)} ms`,
            ),
            `${per.total.toFixed(1)} ms`,
          ];
        }),
      ),
      '',
    );
    const threadNames = [...new Set(results.steps.flatMap((step) => Object.keys(step.cpu.threads)))].sort();
    out.push('Threads of the API+worker process:', '');
    out.push(
      table(
        ['offered/s', ...threadNames],
        results.steps.map((step) => [
          String(step.rate),
          ...threadNames.map((name) => pct(step.cpu.threads[name] ?? 0)),
        ]),
      ),
      '',
    );
  }

  if (results.saturation.length) {
    out.push('## Closed-loop saturation', '');
    out.push(
      'N writers, each writing a record (`POST /api/v1/records/deal`), waiting for its signed POST to ' +
        'arrive, then writing the next: exactly N writes in flight. Deliveries/s is the receipts per second ' +
        'in the measured window; CPU per delivery as above.',
      '',
    );
    out.push(
      table(
        ['writes in flight', 'deliveries/s', 'p50', 'p99', 'failed writes', 'lost', 'CPU per delivery'],
        results.saturation.map((run) => [
          String(run.inFlight),
          num(run.rate),
          ms(run.latency.p50),
          ms(run.latency.p99),
          String(run.failedWrites),
          String(run.lost),
          `${cpuMsPer(
            GROUPS.reduce((sum, group) => sum + run.cpu.groups[group], 0),
            run.rate,
          ).toFixed(1)} ms`,
        ]),
      ),
      '',
    );
  }

  out.push(...floorSection(results));

  if (results.statements) {
    const counted = results.statements;
    out.push('## SQL statements per delivery', '');
    out.push(
      `PostgreSQL's own log (log_statement=all) while ${counted.writes} records were written one after ` +
        'the other, each waiting for its signed POST, minus an idle window as long (sweeps, pollers): ' +
        `${counted.measured} statements logged, ${counted.idle} idle, so ${num(counted.perDelivery, 1)} per ` +
        `record write and its delivery (BEGIN and COMMIT included), ${num(counted.preparedPerDelivery, 1)} of them ` +
        'named prepared statements (planned once per connection). The most frequent:',
      '',
    );
    out.push(
      table(
        ['statement (values elided)', 'per delivery', 'prepared'],
        counted.top.map((entry) => [
          `\`${entry.statement.replace(/\|/g, '\\|')}\``,
          num(entry.perDelivery, 1),
          entry.prepared ? 'yes' : 'no',
        ]),
      ),
      '',
    );
  }

  out.push('## Ceilings and REST', '');
  const engineRow = (what: string, run: EngineResult) => [
    what,
    `${num(run.rate)} workflows/s`,
    `${ms(run.latency.p50)} / ${ms(run.latency.p99)}`,
    ...cpuCells(run.cpu),
  ];
  const ceilingRows: string[][] = [
    ...(results.engineFloor ?? []).map((run) =>
      engineRow(`engine floor: the delivery's engine shape, N = ${run.concurrency}`, run),
    ),
  ];
  if (results.engine)
    ceilingRows.push(engineRow('engine, regular activity, no eager start: empty workflow', results.engine));
  if (results.engineDeliveryShaped)
    ceilingRows.push(
      engineRow('engine, regular activity, no eager start: delivery-shaped', results.engineDeliveryShaped),
    );
  if (results.http)
    ceilingRows.push([
      'HTTP: keep-alive POST loop to the receiver',
      `${num(results.http.rate)} req/s`,
      `${ms(results.http.latency.p50)} / ${ms(results.http.latency.p99)}`,
      ...cpuCells(results.http.cpu),
    ]);
  for (const rest of results.rest)
    ceilingRows.push([
      `REST: GET ${rest.path} (x-api-key)`,
      `${num(rest.rate)} req/s`,
      `${ms(rest.latency.p50)} / ${ms(rest.latency.p99)}`,
      ...cpuCells(rest.cpu),
    ]);
  out.push(table(['what', 'throughput', 'p50 / p99', ...CPU_HEADER], ceilingRows), '');
  out.push(
    [
      results.engineFloor?.length &&
        "- Engine floor: the delivery workflow's engine shape with a no-op attempt (floorWorkflow: eager " +
          "start, the delivery's search attributes, memo, summary and fairness key, three patches, a local " +
          'activity, one upsert), on a task queue of its own, served by a worker in the bench process with ' +
          "the real worker's workflow-task and local-activity slots, its " +
          "client on the worker's NativeConnection so that its starts ask for eager start as the " +
          "dispatcher's do. " +
          results.engineFloor.map(floorChecks).join('; ') +
          '. A workflow counts when its attempt ran in the measured window.',
      results.engine &&
        '- Engine, regular activity, no eager start: N loops each start a workflow on a task queue of its ' +
          'own, with a client on its own connection, and wait for its result, for N = 10 and 50; the table ' +
          `shows the better one (N = ${results.engine.concurrency}). Its worker is another worker (SDK ` +
          'defaults) in the bench process, the workflows bundled from bench/engine-workflows.ts. ' +
          `${results.engine.failed} failed. The delivery-shaped workflow is started with the delivery's five ` +
          'search attributes, DeliveryStatus, memo and summary, runs the no-op activity and upserts ' +
          'DeliveryStatus, at the same concurrency. The first workflow task and the activity both go ' +
          "through the server's task queues, which a delivery's do not: these are not a ceiling for the " +
          'delivery path, the floor is its measure.',
      (results.engine || results.engineFloor?.length) &&
        '- Every engine workflow that ended in the measured window counts (before issue 23, only those ' +
          'that also began in it: a load with long latencies was undercounted).',
      results.http &&
        `- HTTP: node:http with a keep-alive Agent in a worker thread, ${results.http.concurrency} connections, ` +
          `a real delivery's body and headers replayed; statuses ${JSON.stringify(results.http.statuses)}.`,
      results.rest.length &&
        `- REST: ${results.rest[0]!.concurrency} keep-alive clients in a worker thread; statuses ` +
          results.rest.map((rest) => `${rest.path} ${JSON.stringify(rest.statuses)}`).join(', ') +
          '.',
    ]
      .filter(Boolean)
      .join('\n'),
    '',
  );

  out.push('## What limits it', '');
  out.push(
    limits(results)
      .map((line) => `- ${line}`)
      .join('\n'),
    '',
  );

  out.push('## Checks', '');
  out.push(
    [
      `- Receiver: ${results.receiver.badSignatures} bad signatures, ${results.receiver.duplicates} duplicate event ids, ` +
        `${results.receiver.unparsable} unparsable bodies.`,
      `- Deliveries by status at the end: ${JSON.stringify(results.deliveryStatuses)}.`,
      ...results.notes.map((note) => `- ${note}`),
      ...foreignNotes(results).map((note) => `- ${note}`),
    ].join('\n'),
    '',
  );
  return out.join('\n');
}

/** The floor run with the most workflows/s. */
export function bestFloor(results: Results): EngineResult | undefined {
  return [...(results.engineFloor ?? [])].sort((a, b) => b.rate - a.rate)[0];
}

/** Each closed loop of the delivery path with the floor run at the same N. */
function closedLoopsWithFloor(results: Results): [Results['saturation'][number], EngineResult][] {
  return results.saturation.flatMap((run) => {
    const floor = results.engineFloor?.find((f) => f.concurrency === run.inFlight);
    return floor ? [[run, floor] as [Results['saturation'][number], EngineResult]] : [];
  });
}

/** Ms of CPU per delivery or floor workflow: the server, the process that runs the workflows, PostgreSQL. */
interface EngineCost {
  temporal: number;
  process: number;
  postgresql: number;
  /** Without the bench's load generator and receiver on the path's side. */
  total: number;
}

/** The delivery path's: the API+worker process runs its workflows, the bench only loads and receives. */
function pathCost(cpu: CpuUsage, rate: number): EngineCost {
  const [temporal, process, postgresql, other] = (
    ['temporal', 'api+worker', 'postgresql', 'other'] as const
  ).map((group) => cpuMsPer(cpu.groups[group], rate)) as [number, number, number, number];
  return { temporal, process, postgresql, total: temporal + process + postgresql + other };
}

/** The floor's: its worker and client are the bench process; the idle stack is not the floor's. */
function floorCost(run: EngineResult): EngineCost {
  const temporal = cpuMsPer(run.cpu.groups.temporal, run.rate);
  const process = cpuMsPer(run.cpu.groups.bench, run.rate);
  return { temporal, process, postgresql: 0, total: temporal + process };
}

/** The delivery path against the engine floor at the same loads: what is left to win in our code. */
function floorSection(results: Results): string[] {
  const floor = bestFloor(results);
  const sustained = sustainedStep(results);
  const pairs: { load: string; rate: number; latency: string; cost: EngineCost; floor: EngineResult }[] =
    closedLoopsWithFloor(results).map(([run, floorRun]) => ({
      load: `${run.inFlight} in flight`,
      rate: run.rate,
      latency: `p50 ${ms(run.latency.p50)}`,
      cost: pathCost(run.cpu, run.rate),
      floor: floorRun,
    }));
  if (sustained && floor)
    pairs.push({
      load: `open model, sustained at ${sustained.rate}/s (floor: best N)`,
      rate: sustained.achieved,
      latency: `p50 ${ms(sustained.latency.p50)}`,
      cost: pathCost(sustained.cpu, sustained.achieved),
      floor,
    });
  if (!pairs.length) return [];
  const both = (path: number, floorValue: number) => `${path.toFixed(1)} / ${floorValue.toFixed(1)} ms`;
  return [
    '## The delivery path against the engine floor',
    '',
    "The floor is what the engine costs a delivery with nothing of ours in it: the delivery workflow's " +
      'engine shape for a delivery that succeeds at its first attempt, on the same server (eager start ' +
      "on the worker's own connection, the delivery's search attributes, memo, summary and fairness key, " +
      'its three patches, the attempt as a local activity, here a no-op, one upsert of DeliveryStatus). ' +
      'N loops each start one and wait for its attempt to run, as the closed loop above waits for the POST. ' +
      "Path ÷ floor is the share of the engine's own rate the delivery path reaches.",
    '',
    table(
      ['load', 'delivery path', 'engine floor', 'path ÷ floor'],
      pairs.map((pair) => [
        pair.load,
        `${num(pair.rate)} deliveries/s (${pair.latency})`,
        `${num(pair.floor.rate)} workflows/s (N = ${pair.floor.concurrency}, p50 ${ms(pair.floor.latency.p50)})`,
        ratio(pair.rate, pair.floor.rate),
      ]),
    ),
    '',
    'CPU per delivery against CPU per floor workflow (path / floor). The process is the API+worker on ' +
      "the path's side, the bench's engine worker and client on the floor's; the totals leave out the " +
      "bench's load generator and receiver. Path − floor is what is left to win in our own code and in " +
      'how it uses Temporal:',
    '',
    table(
      ['load', 'Temporal', 'process', 'PostgreSQL', 'total', 'path − floor'],
      pairs.map(({ load, cost, floor: floorRun }) => {
        const floorValue = floorCost(floorRun);
        return [
          load,
          both(cost.temporal, floorValue.temporal),
          both(cost.process, floorValue.process),
          both(cost.postgresql, floorValue.postgresql),
          both(cost.total, floorValue.total),
          `${(cost.total - floorValue.total).toFixed(1)} ms`,
        ];
      }),
    ),
    '',
  ];
}

/** What says the floor ran as the delivery path runs: eager starts, every workflow completed. */
function floorChecks(run: EngineResult): string {
  const starts = run.starts
    ? `${run.starts.eager} of ${run.starts.total} started eagerly`
    : 'starts not counted';
  const unfinished =
    run.unfinished === undefined ? 'completion not checked' : `${run.unfinished} not completed`;
  return `N = ${run.concurrency}: ${starts}, ${run.failed} failed, ${unfinished}`;
}

function latencyCell(step: StepResult, value: number): string {
  // Writes still unreceived at the end of the drain are not in the percentiles: a lower bound.
  return `${step.unreceived > 0 ? '≥ ' : ''}${ms(value)}`;
}

function ratio(a: number, b: number): string {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return '–';
  const value = a / b;
  return `${value >= 0.01 ? value.toFixed(2) : value.toPrecision(2)} (${num(a)} ÷ ${num(b)})`;
}

/** Milliseconds of CPU per delivery (write included) in each group, at the step's achieved rate. */
export function cpuPerDelivery(step: StepResult): Record<Group, number> & { total: number } {
  const per = Object.fromEntries(
    GROUPS.map((group) => [group, cpuMsPer(step.cpu.groups[group], step.achieved)]),
  ) as Record<Group, number>;
  return { ...per, total: GROUPS.reduce((sum, group) => sum + per[group], 0) };
}

/** Observations, not opinions: what the numbers of this run say about the limit. */
function limits(results: Results): string[] {
  const lines: string[] = [];
  const cores = results.machine.cores;
  const sustained = sustainedStep(results);
  const loaded = results.steps.find((step) => !step.sustained) ?? results.steps[results.steps.length - 1];
  if (loaded) {
    const cpu = loaded.cpu;
    const ranked = GROUPS.map((group) => ({ group, value: cpu.groups[group] }))
      .filter((entry) => entry.value >= 1)
      .sort((a, b) => b.value - a.value);
    const busy = cpu.machine / (cores * 100);
    lines.push(
      `At ${loaded.rate} writes/s offered (${loaded.sustained ? 'sustained' : 'not sustained'}), the machine was ` +
        `${pct(busy * 100)} busy (${pct(cpu.machine)} of ${cores * 100}%): ` +
        ranked.map((entry) => `${GROUP_LABELS[entry.group]} ${pct(entry.value)}`).join(', ') +
        (cpu.foreign >= 5 ? `, and ${pct(cpu.foreign)} by other work on this machine` : '') +
        '.',
    );
    const capacity = cores * 100;
    if (busy >= 0.85 && cpu.foreign >= 0.25 * capacity)
      lines.push(
        `The cores were saturated, but ${pct(cpu.foreign)} of that was other work on this machine: the stack ` +
          `had about ${pct(cpu.machine - cpu.foreign)} of the ${capacity}%, so the rates here are lower than ` +
          'the same stack reaches on an idle machine (the ratios between them hold better than the absolute numbers).',
      );
    else if (busy >= 0.85)
      lines.push(
        'Both cores were close to saturation, so the delivery path is CPU-bound on this machine: every ' +
          'component (API, worker, PostgreSQL, Temporal, and the bench itself) competes for the same cores, ' +
          'and the ranking above is where the CPU goes.',
      );
    else
      lines.push(
        `The cores were not saturated (${pct(busy * 100)}), so the limit at this rate is not raw CPU but waiting: ` +
          'serial steps and round trips (see the stages below).',
      );
    const mainThread = Object.entries(cpu.threads).find(([name]) => name.startsWith('JS main thread'));
    if (mainThread && mainThread[1] >= 80)
      lines.push(
        `The API+worker process's JavaScript main thread was at ${pct(mainThread[1])} of a core: the single ` +
          'event loop that serves the API, runs the dispatcher and the delivery activities is a bottleneck of ' +
          'its own, whatever the other core does.',
      );
    const serial = loaded.stages?.startInterval.p50;
    if (loaded.stages && serial !== undefined && Number.isFinite(serial) && loaded.stages.batchSize.max > 1) {
      const perDispatcher = 1000 / Math.max(1, serial);
      lines.push(
        `The dispatcher starts the workflows of a dispatch one after the other: at ${loaded.rate}/s one start ` +
          `(with its workflow_started_at update) took ${ms(serial)} (p50), so one dispatcher cannot start more ` +
          `than about ${num(perDispatcher, 0)} workflows/s` +
          (perDispatcher < loaded.rate * 1.2
            ? `, below the offered ${loaded.rate}/s: the backlog queues in the dispatcher, in front of ` +
              'Temporal ("event → dispatched" and "dispatched → workflow started" grow), and each start is ' +
              'slow because the Temporal server is busy.'
            : '.'),
      );
    }
    if (loaded.stages) {
      const stages = STAGES.map(([name]) => ({ name, p50: loaded.stages!.stages[name].p50 })).sort(
        (a, b) => b.p50 - a.p50,
      );
      const total = loaded.latency.p50;
      lines.push(
        `Latency at ${loaded.rate}/s: of a p50 of ${ms(total)} from write to receipt, the largest stages were ` +
          stages
            .slice(0, 3)
            .map((stage) => `${stage.name} (${ms(stage.p50)})`)
            .join(', ') +
          '.',
      );
    }
  }
  const floor = bestFloor(results);
  const steady = sustained ?? results.steps[0];
  if (steady && steady.achieved > 0) {
    const per = cpuPerDelivery(steady);
    const capacity = cores * 100;
    const had = loaded ? loaded.cpu.machine - loaded.cpu.foreign : capacity;
    lines.push(
      `CPU per delivery at ${steady.rate}/s: ${per.total.toFixed(0)} ms in all (API+worker ${per['api+worker'].toFixed(0)} ms, ` +
        `Temporal ${per.temporal.toFixed(0)} ms, PostgreSQL ${per.postgresql.toFixed(0)} ms, bench ` +
        `${per.bench.toFixed(0)} ms). With all ${cores} cores to itself the stack would be CPU-bound at about ` +
        `${num((capacity * 10) / per.total, 0)} deliveries/s on this machine` +
        (loaded && loaded.cpu.foreign >= 10
          ? `; with the ${pct(had)} it had under load, about ${num((had * 10) / per.total, 0)}/s.`
          : '.'),
    );
    const engine = floor ? floorCost(floor) : results.engine && floorCost(results.engine);
    if (engine)
      lines.push(
        `The Temporal dev server used ${per.temporal.toFixed(0)} ms of CPU per delivery and ` +
          `${engine.temporal.toFixed(0)} ms per ${floor ? 'floor workflow' : 'empty workflow (regular activity, no eager start)'} ` +
          `(whose worker and client, in the bench process, used another ${engine.process.toFixed(0)} ms): the ` +
          `engine's share of a delivery is about ${pct((per.temporal / per.total) * 100)} of its CPU, the ` +
          `API+worker's ${pct((per['api+worker'] / per.total) * 100)}.`,
      );
  }
  if (sustained && floor) {
    const share = sustained.achieved / floor.rate;
    const closed = closedLoopsWithFloor(results).sort(([a], [b]) => b.rate - a.rate)[0];
    lines.push(
      `The delivery path sustains ${num(sustained.achieved)}/s against an engine floor of ` +
        `${num(floor.rate)} workflows/s on the same Temporal server (${share.toFixed(2)}×)` +
        (closed
          ? `; in a closed loop with ${closed[0].inFlight} in flight, ${num(closed[0].rate)}/s against ` +
            `${num(closed[1].rate)}/s (${(closed[0].rate / closed[1].rate).toFixed(2)}×)`
          : '') +
        ". The floor is a delivery's own engine work with a no-op attempt, so the gap is the API write, the " +
        "dispatch, the attempt's database reads and writes and its POST, all on the same cores, and " +
        'whatever the path asks of Temporal beyond the floor' +
        (share < 0.5 ? ': most of the cost is outside the engine.' : '.'),
    );
  } else if (sustained && results.engine)
    lines.push(
      `The delivery path sustains ${num(sustained.achieved)}/s against ${num(results.engine.rate)} ` +
        'workflows/s for an empty workflow with a regular activity and no eager start on the same Temporal ' +
        `server (${(sustained.achieved / results.engine.rate).toFixed(2)}×).`,
    );
  if (floor && results.engineDeliveryShaped) {
    const shaped = results.engineDeliveryShaped;
    const same = results.engineFloor?.find((run) => run.concurrency === shaped.concurrency) ?? floor;
    lines.push(
      `Eager start and the attempt as a local activity: the floor ran at ${num(same.rate)} workflows/s ` +
        `(N = ${same.concurrency}) against ${num(shaped.rate)}/s for the delivery-shaped workflow with a ` +
        `regular activity and no eager start (${(same.rate / shaped.rate).toFixed(2)}×), the server using ` +
        `${floorCost(same).temporal.toFixed(1)} ms of CPU per workflow against ` +
        `${floorCost(shaped).temporal.toFixed(1)} ms.`,
    );
  }
  if (results.engine && results.engineDeliveryShaped)
    lines.push(
      `With a regular activity and no eager start, a workflow shaped like a delivery (search attributes, memo, ` +
        `one upsert) ran at ${num(results.engineDeliveryShaped.rate)}/s against ${num(results.engine.rate)}/s ` +
        `for the empty one (${(results.engineDeliveryShaped.rate / results.engine.rate).toFixed(2)}×): what ` +
        "the delivery's visibility costs the engine.",
    );
  if (results.http && sustained)
    lines.push(
      `The HTTP hop is not the limit: the receiver takes ${num(results.http.rate)} POST/s over keep-alive, ` +
        `${Math.round(results.http.rate / Math.max(1, sustained.achieved))}× the delivery rate.`,
    );
  lines.push(
    'To see inside the API+worker process, run `BENCH_CPU_PROFILE=/tmp/prof BENCH_PHASES=deliveries npm run bench`: ' +
      'it adds `--cpu-prof` to `dist/src/main.js` and prints where its threads spent their CPU during the steps.',
  );
  return lines;
}

/** Phases during which other work on this machine took a noticeable share of the CPU. */
function foreignNotes(results: Results): string[] {
  const phases: [string, CpuUsage][] = [
    ...(results.http ? [['HTTP ceiling', results.http.cpu] as [string, CpuUsage]] : []),
    ...results.rest.map((rest) => [`REST ${rest.path}`, rest.cpu] as [string, CpuUsage]),
    ...(results.engineFloor ?? []).map(
      (run) => [`engine floor, N = ${run.concurrency}`, run.cpu] as [string, CpuUsage],
    ),
    ...(results.engine ? [['engine, empty workflow', results.engine.cpu] as [string, CpuUsage]] : []),
    ...(results.engineDeliveryShaped
      ? [['delivery-shaped engine', results.engineDeliveryShaped.cpu] as [string, CpuUsage]]
      : []),
    ...results.steps.map((step) => [`deliveries at ${step.rate}/s`, step.cpu] as [string, CpuUsage]),
  ];
  const busy = phases.filter(([, cpu]) => cpu.foreign >= 20 || cpu.steal >= 20);
  if (!busy.length) return [];
  return [
    'Other work shared this machine during the run, so these phases measured less than an idle machine ' +
      'would give: ' +
      busy
        .map(
          ([phase, cpu]) =>
            `${phase} ${pct(cpu.foreign)} of a core` +
            (cpu.foreignTop.length ? ` (${cpu.foreignTop.join(', ')})` : '') +
            (cpu.steal >= 5 ? `, steal ${pct(cpu.steal)}` : ''),
        )
        .join('; ') +
      '.',
  ];
}
