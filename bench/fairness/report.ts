// The `## Fairness` section of BENCHMARKS.md: B's latency beside A's load, as ratios to the
// scenario where A is idle, with A's deliveries and their schedule, and the CPU of each component.
import type { Machine } from '../report/report';
import { ms, num, pct, table } from '../stats';
import { BAD_MODE_LABELS } from './bad-receivers';
import { MCP_BATCH_SIZE, WORKSPACE_FLOOD_KEYS, type FloodKind } from './floods';
import { KEEP_UP_GRACE_S, type ScenarioResult } from './scenario';

export const FAIRNESS_HEADING = '## Fairness';

/** The targets of issue 23: B's p50 within 1.5×, its p99 within 2× of the A-idle values. */
export const P50_BOUND = 1.5;
export const P99_BOUND = 2;

const FLOOD_LABELS: Record<FloodKind, string> = {
  rest: 'writes',
  'mcp-batch': `MCP batches of ${MCP_BATCH_SIZE} create_record`,
  app: 'web-app (/app/api) writes',
  workspaces: `writes from up to ${WORKSPACE_FLOOD_KEYS + 1} of its workspaces`,
};

export function describeLoad(result: ScenarioResult): string {
  const { scenario } = result;
  if (!scenario.mode) return 'A idle';
  if (scenario.flood)
    return `A floods: ${scenario.flood} ${FLOOD_LABELS[scenario.floodKind ?? 'rest']} in flight, default quotas`;
  const what =
    scenario.mode === 'slow' && scenario.answerMs
      ? `answers in ${num(scenario.answerMs / 1000, scenario.answerMs % 1000 ? 1 : 0)} s`
      : BAD_MODE_LABELS[scenario.mode];
  if (scenario.burst) return `A: ${scenario.burst} at once, ${what}`;
  return scenario.webhooks && scenario.webhooks > 1
    ? `A: ${scenario.rate}/s to ${scenario.webhooks} webhooks, ${what}`
    : `A: ${scenario.rate}/s, ${what}`;
}

export function renderFairness(results: {
  machine: Machine;
  revision: string;
  durationS: number;
  bIntervalMs: number;
  scenarios: ScenarioResult[];
}): string {
  const m = results.machine;
  const idle = results.scenarios.find((result) => !result.scenario.mode);
  const ratio = (value: number, base: number | undefined) =>
    base && Number.isFinite(value) ? `${(value / base).toFixed(2)}×` : '–';
  const verdict = (result: ScenarioResult) => {
    if (!idle || !result.scenario.mode) return '';
    const ok = result.b.p50 <= P50_BOUND * idle.b.p50 && result.b.p99 <= P99_BOUND * idle.b.p99;
    return ok ? 'within' : 'OUTSIDE';
  };
  const latencyRows = results.scenarios.map((result) => [
    describeLoad(result),
    ms(result.b.p50),
    ms(result.b.p99),
    ms(result.b.max),
    ratio(result.b.p50, idle?.b.p50),
    ratio(result.b.p99, idle?.b.p99),
    verdict(result),
    String(result.bUnreceived + result.bFailedWrites),
    result.loadAverage.split(',')[0]!,
  ]);
  const aRows = results.scenarios
    .filter((result) => result.a)
    .map((result) => {
      const a = result.a!;
      const s = a.schedule;
      return [
        describeLoad(result),
        `${a.writes} (${Object.entries(a.answers)
          .map(([status, count]) => `${status}: ${count}`)
          .join(', ')})${a.floodNote ? `; ${a.floodNote}` : ''}`,
        `${a.deliveries} (${Object.entries(a.byStatus)
          .map(([status, count]) => `${status} ${count}`)
          .join(', ')})`,
        String(a.notStarted),
        String(a.started),
        `${a.requests} (${a.maxOpen} at once)`,
        ...keptUpCells(result),
        `${s.retries}: ${s.early} early, ${s.onTime} on time, ${s.late} late`,
        s.firstRetryOffset.count ? `${ms(s.firstRetryOffset.p50)} / ${ms(s.firstRetryOffset.max)}` : '–',
      ];
    });
  const cpuRows = results.scenarios.map((result) => [
    describeLoad(result),
    pct(result.cpu.groups['api+worker']),
    pct(result.cpu.groups.postgresql),
    pct(result.cpu.groups.temporal),
    pct(result.cpu.groups.bench),
    pct(result.cpu.machine),
    pct(result.cpu.foreign),
  ]);
  const capacity = results.scenarios.filter((result) => result.capacity?.lines.length);
  return [
    FAIRNESS_HEADING,
    '',
    `\`npm run bench:fairness\` (revision ${results.revision}): each scenario on a fresh embedded stack. ` +
      `Workspace B writes a record every ${results.bIntervalMs / 1000} s for ${results.durationS} s to a ` +
      `receiver that answers at once; workspace A writes at the same time to a receiver that never answers ` +
      `(every attempt runs into the 5 s timeout), answers well but slowly (after 4.9 s or 1 s), answers at ` +
      `once, or refuses connections. B's ` +
      `write-to-receipt time is measured by the bench (write sent → signed POST received). ` +
      `${m.cpuModel}, ${m.cores} cores, Node ${m.node}, ${m.date}; load average ${m.loadAverage} at the start.`,
    '',
    `Target (issue 23): B's p50 at most ${P50_BOUND}× and its p99 at most ${P99_BOUND}× the A-idle values.`,
    '',
    table(
      ['scenario', 'B p50', 'B p99', 'B max', 'p50 ÷ idle', 'p99 ÷ idle', 'target', 'B lost', 'load'],
      latencyRows,
    ),
    '',
    "A's writes and deliveries at the end of the load (read from the delivery log). For a receiver that " +
      `answers, A kept up (issue 33) when at most one second of its writes was not started when the load ended and ` +
      `every delivery was delivered within ${KEEP_UP_GRACE_S} s after it. A retry is early when it ` +
      'started before its pause (10 s, 20 s, … after the previous attempt ended) was over, on time within 1 s ' +
      'of it, late when it waited longer for capacity.',
    '',
    table(
      [
        'scenario',
        'A writes (answers)',
        'A deliveries',
        'not started',
        'workflows started',
        'requests seen',
        'not started at the end',
        `delivered within ${KEEP_UP_GRACE_S} s`,
        'kept up',
        'retries',
        'first retry late by p50 / max',
      ],
      aRows,
    ),
    '',
    'CPU during the load, % of one core (200% = both cores):',
    '',
    table(['scenario', 'API + worker', 'PostgreSQL', 'Temporal', 'bench', 'machine', 'not ours'], cpuRows),
    ...(capacity.length
      ? [
          '',
          'Delivery capacity at the end of the load (`GET /metrics`):',
          '',
          ...capacity.map(
            (result) => `- ${describeLoad(result)}: ${capacitySummary(result.capacity!.lines)}`,
          ),
        ]
      : []),
    '',
    `${num(results.scenarios.length, 0)} scenarios.`,
  ].join('\n');
}

/**
 * Whether A kept up with a receiver that answers (issue 33): at most one second of its writes not
 * started when the load ended, and every delivery delivered within KEEP_UP_GRACE_S after it.
 */
export function keptUpVerdict(result: ScenarioResult): string {
  const keptUp = result.a?.keptUp;
  if (!keptUp) return '–';
  const ok =
    keptUp.notStartedAtEnd <= (result.scenario.rate ?? 0) &&
    keptUp.deliveredInGrace === keptUp.deliveries &&
    keptUp.lastDeliveredAfterS !== null;
  return ok ? 'kept up' : 'BEHIND';
}

/** A's keep-up columns: not started at the load's end; delivered within the grace; when the last was. */
function keptUpCells(result: ScenarioResult): string[] {
  const keptUp = result.a?.keptUp;
  if (!keptUp) return ['–', '–', '–'];
  return [
    String(keptUp.notStartedAtEnd),
    `${keptUp.deliveredInGrace} of ${keptUp.deliveries}` +
      (keptUp.lastDeliveredAfterS === null ? '' : ` (all by +${keptUp.lastDeliveredAfterS.toFixed(1)} s)`),
    keptUpVerdict(result),
  ];
}

/**
 * The capacity metrics in words, summed over workspaces and webhooks: `slots fast 200, slow 100;
 * in flight slow 51; waiting held 328, slow_lane 93`.
 */
export function capacitySummary(lines: readonly string[]): string {
  const groups = new Map<string, Map<string, number>>();
  for (const line of lines) {
    const match = /^webhook_(\w+)\{([^}]*)\} ([\d.e+-]+)$/.exec(line);
    if (!match) continue;
    const [, metric, labels, value] = match;
    const part = /(?:lane|where)="([^"]+)"/.exec(labels!)?.[1] ?? 'all';
    const name =
      { lane_slots: 'slots', lane_in_flight: 'in flight', deliveries_waiting: 'waiting' }[metric!] ?? metric!;
    const group = groups.get(name) ?? new Map<string, number>();
    group.set(part, (group.get(part) ?? 0) + Number(value));
    groups.set(name, group);
  }
  return [...groups]
    .map(([name, parts]) => `${name} ${[...parts].map(([part, value]) => `${part} ${value}`).join(', ')}`)
    .join('; ');
}
