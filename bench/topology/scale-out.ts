// `BENCH_STACK=topology BENCH_SCALE_OUT=2x1,2x2,2x3,1x2 npm run bench`: the production topology in
// several shapes (APIs × workers), each started afresh and given the same offered loads and the same
// closed loop, with the CPU of each role per delivery and PostgreSQL's split by database; written as
// the `## Topology scale-out` section of BENCHMARKS.md. It answers what adding a worker or an API
// costs and buys, and which shared part (the Temporal server, its databases, the service's database)
// a larger load would need more of (docs/architecture.md, "In production: scaling out").
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Machine } from '../report/report';
import { withSection } from '../report/sections';
import { cpuMsPer } from '../cpu';
import { ms, num, pct, table } from '../stats';
import {
  closedLoops,
  loadAverageNow,
  openSteps,
  withTopology,
  type ClosedLoopRun,
  type TopologyBenchOptions,
  type TopologyStep,
} from './measure';
import { BACKGROUND } from './postgres-cpu';
import { TEMPORAL_DATABASES, TEMPORAL_SERVER_VERSION } from './spec';

export const SCALE_OUT_HEADING = '## Topology scale-out';

export interface Shape {
  apis: number;
  workers: number;
}

/** `2x1,2x2` → APIs × workers. */
export function shapesOf(text: string): Shape[] {
  return text.split(',').map((item) => {
    const match = /^\s*(\d+)x(\d+)\s*$/.exec(item);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1)
      throw new Error(`BENCH_SCALE_OUT: "${item}" is not APIsxWORKERS (e.g. 2x3)`);
    return { apis: Number(match[1]), workers: Number(match[2]) };
  });
}

interface ShapeResult {
  shape: Shape;
  steps: TopologyStep[];
  loop: ClosedLoopRun | undefined;
  loadAverage: string;
}

/** The roles a delivery's CPU is split into, from the component trees and PostgreSQL's databases. */
export const ROLES = [
  'APIs',
  'workers',
  'Temporal server',
  'PostgreSQL: Temporal',
  'PostgreSQL: service',
  'PostgreSQL: other',
] as const;
type Role = (typeof ROLES)[number];

const TEMPORAL_DATABASE_NAMES: readonly string[] = TEMPORAL_DATABASES.map(({ database }) => database);

/** % of one core by role. */
export function byRole(
  trees: Record<string, number>,
  postgres: Record<string, number>,
): Record<Role, number> {
  const sum = (prefix: string) =>
    Object.entries(trees)
      .filter(([name]) => name.startsWith(prefix))
      .reduce((total, [, used]) => total + used, 0);
  const temporalDb = TEMPORAL_DATABASE_NAMES.reduce((total, name) => total + (postgres[name] ?? 0), 0);
  const serviceDb = Object.entries(postgres)
    .filter(([name]) => name !== BACKGROUND && !TEMPORAL_DATABASE_NAMES.includes(name))
    .reduce((total, [, used]) => total + used, 0);
  return {
    APIs: sum('API '),
    workers: sum('worker '),
    'Temporal server': trees['Temporal server'] ?? 0,
    'PostgreSQL: Temporal': temporalDb,
    'PostgreSQL: service': serviceDb,
    // Read per backend as the two above (the tree's sum drops when a backend exits in between).
    'PostgreSQL: other': postgres[BACKGROUND] ?? 0,
  };
}

export async function runScaleOut(options: TopologyBenchOptions & { shapes: Shape[] }): Promise<void> {
  const { log } = options;
  const results: ShapeResult[] = [];
  for (const shape of options.shapes) {
    log(`— ${shape.apis} API(s), ${shape.workers} worker(s) —`);
    const result = await withTopology({ projectRoot: options.projectRoot, log, ...shape }, async (run) => {
      // Every rate, even past one not sustained: the shapes are compared at the same offered loads.
      const steps: TopologyStep[] = [];
      for (const rate of options.rates)
        steps.push(...(await openSteps(run, { rates: [rate], stepSeconds: options.stepSeconds, log })));
      const loop = (await closedLoops(run, { inFlight: [10], log }))[0];
      return { shape, steps, loop, loadAverage: loadAverageNow() };
    });
    results.push(result);
  }
  const section = renderScaleOut({ machine: options.machine, stepSeconds: options.stepSeconds, results });
  const before = existsSync(options.output) ? readFileSync(options.output, 'utf8') : '';
  writeFileSync(options.output, withSection(before, SCALE_OUT_HEADING, section));
  process.stdout.write(`\n${section}\n`);
  log(`wrote the ${SCALE_OUT_HEADING} section of ${options.output}`);
}

/** Transactions committed and rows written per delivery received, in Temporal's databases and the service's. */
function perReceipt(step: TopologyStep): string[] {
  const { databases, receipts } = step.activity;
  const of = (names: (name: string) => boolean) => {
    const chosen = Object.entries(databases).filter(([name]) => names(name));
    const sum = (key: 'commits' | 'rows') => chosen.reduce((total, [, value]) => total + value[key], 0);
    return `${num(sum('commits') / Math.max(receipts, 1), 1)} / ${num(sum('rows') / Math.max(receipts, 1), 1)}`;
  };
  const service = (name: string) =>
    !TEMPORAL_DATABASE_NAMES.includes(name) && !['postgres', 'template0', 'template1'].includes(name);
  return [of((name) => name === 'temporal'), of((name) => name === 'temporal_visibility'), of(service)];
}

const shapeName = ({ apis, workers }: Shape) => `${apis} × ${workers}`;

export function renderScaleOut(results: {
  machine: Machine;
  stepSeconds: number;
  results: ShapeResult[];
}): string {
  const m = results.machine;
  const total = (roles: Record<Role, number>) => ROLES.reduce((sum, role) => sum + roles[role], 0);
  const stepRows = results.results.flatMap(({ shape, steps }) =>
    steps.map((step) => {
      const roles = byRole(step.cpu.trees, step.postgres);
      return [
        shapeName(shape),
        String(step.rate),
        num(step.achieved),
        ms(step.latency.p50),
        ms(step.latency.p99),
        ...ROLES.map((role) => num(cpuMsPer(roles[role], step.achieved), 1)),
        num(cpuMsPer(total(roles), step.achieved), 1),
        pct(step.cpu.machine),
        `${step.starts.eager} of ${step.starts.total}`,
        ...perReceipt(step),
      ];
    }),
  );
  const loopRows = results.results.flatMap(({ shape, loop, loadAverage }) => {
    if (!loop) return [];
    const roles = byRole(loop.cpu, loop.postgres);
    return [
      [
        shapeName(shape),
        num(loop.rate),
        ms(loop.latency.p50),
        ms(loop.latency.p99),
        ...ROLES.map((role) => num(cpuMsPer(roles[role], loop.rate), 1)),
        num(cpuMsPer(total(roles), loop.rate), 1),
        pct(loop.machine),
        loadAverage,
      ],
    ];
  });
  return [
    SCALE_OUT_HEADING,
    '',
    '`BENCH_STACK=topology BENCH_SCALE_OUT=' +
      results.results.map(({ shape }) => `${shape.apis}x${shape.workers}`).join(',') +
      ' npm run bench`: the production topology (the Temporal server ' +
      `${TEMPORAL_SERVER_VERSION} on PostgreSQL, one cluster) started afresh in each shape, APIs × workers, ` +
      'each process its own; record writes alternate between the APIs. Every shape shares the same 2 ' +
      'cores, so a shape cannot add capacity here: what the table shows is what each role costs a ' +
      'delivery as processes are added (a cost that stays flat scales out onto hosts of its own), and ' +
      `which shared role grows. ${m.cpuModel}, ${m.cores} cores, Node ${m.node}, ${m.date}; load ` +
      `average ${m.loadAverage} at the start.`,
    '',
    `Open-model steps of ${results.stepSeconds} s; CPU in ms per delivery by role (PostgreSQL split by ` +
      "the database each backend serves: Temporal's `temporal` and `temporal_visibility`, the service's; " +
      '"other" is its background processes), machine in % of one core:',
    '',
    table(
      [
        'APIs × workers',
        'writes/s',
        'achieved/s',
        'p50',
        'p99',
        ...ROLES,
        'total',
        'machine',
        'eager starts',
        'commits / rows per delivery: temporal',
        'temporal_visibility',
        'service',
      ],
      stepRows,
    ),
    '',
    'Closed loop, 10 writes in flight (15 s), and the load average when the shape ended:',
    '',
    table(
      ['APIs × workers', 'deliveries/s', 'p50', 'p99', ...ROLES, 'total', 'machine', 'load average'],
      loopRows,
    ),
  ].join('\n');
}
