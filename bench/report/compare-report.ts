// The "Before and after" section of npm run bench:compare: the measures issue 14 asks about, from two
// runs one right after the other on one machine, as ratios (after ÷ before).
import { GROUPS, GROUP_LABELS } from '../cpu';
import { bestFloor, cpuPerDelivery, sustainedStep, type Results, type StepResult } from './report';
import { ms, num, table } from '../stats';

export interface ComparedRun {
  label: string;
  commit: string;
  results: Results;
}

/**
 * The rate to compare latency and CPU at: the highest both runs sustained (a rate one of them could
 * not keep up with measures its backlog, not its cost); else the common rate nearest 50/s.
 */
function referenceRate(before: Results, after: Results): number | undefined {
  const sustained = (results: Results) =>
    results.steps.filter((step) => step.sustained).map((step) => step.rate);
  const both = sustained(before).filter((rate) => sustained(after).includes(rate));
  if (both.length) return Math.max(...both);
  const common = before.steps
    .map((step) => step.rate)
    .filter((rate) => after.steps.some((s) => s.rate === rate));
  return common.sort((a, b) => Math.abs(a - 50) - Math.abs(b - 50))[0];
}

const stepAt = (results: Results, rate: number | undefined): StepResult | undefined =>
  results.steps.find((step) => step.rate === rate);

function ratio(after: number | undefined, before: number | undefined): string {
  if (
    after === undefined ||
    before === undefined ||
    !Number.isFinite(after) ||
    !Number.isFinite(before) ||
    before === 0
  )
    return '–';
  return `${(after / before).toFixed(2)}×`;
}

export function renderComparison(runs: { before: ComparedRun; after: ComparedRun }): string {
  const { before, after } = runs;
  const rate = referenceRate(before.results, after.results);
  const [b, a] = [stepAt(before.results, rate), stepAt(after.results, rate)];
  const [bSustained, aSustained] = [sustainedStep(before.results), sustainedStep(after.results)];
  const bestOf = (results: Results) => [...results.saturation].sort((x, y) => y.rate - x.rate)[0];
  const [bBest, aBest] = [bestOf(before.results), bestOf(after.results)];
  const rows: string[][] = [];
  const row = (
    measure: string,
    valueBefore: number | undefined,
    valueAfter: number | undefined,
    show: (v: number) => string,
  ) =>
    rows.push([
      measure,
      valueBefore === undefined ? '–' : show(valueBefore),
      valueAfter === undefined ? '–' : show(valueAfter),
      ratio(valueAfter, valueBefore),
    ]);
  row(
    'Deliveries/s sustained (open model)',
    bSustained?.achieved,
    aSustained?.achieved,
    (v) => `${num(v)} /s`,
  );
  row('Closed-loop saturation (best N)', bBest?.rate, aBest?.rate, (v) => `${num(v)} /s`);
  for (const inFlight of after.results.saturation.map((run) => run.inFlight)) {
    const find = (results: Results) => results.saturation.find((run) => run.inFlight === inFlight);
    row(
      `  with ${inFlight} writes in flight`,
      find(before.results)?.rate,
      find(after.results)?.rate,
      (v) => `${num(v)} /s`,
    );
    row(
      `  p50 with ${inFlight} in flight`,
      find(before.results)?.latency.p50,
      find(after.results)?.latency.p50,
      ms,
    );
  }
  if (rate !== undefined) {
    row(`p50 write-to-receipt at ${rate}/s`, b?.latency.p50, a?.latency.p50, ms);
    row(`p99 write-to-receipt at ${rate}/s`, b?.latency.p99, a?.latency.p99, ms);
    const [bCpu, aCpu] = [b && cpuPerDelivery(b), a && cpuPerDelivery(a)];
    row(`CPU per delivery at ${rate}/s, total`, bCpu?.total, aCpu?.total, (v) => `${v.toFixed(1)} ms`);
    for (const group of GROUPS.filter((g) => g !== 'other'))
      row(`  ${GROUP_LABELS[group]}`, bCpu?.[group], aCpu?.[group], (v) => `${v.toFixed(1)} ms`);
  }
  row(
    'SQL statements per write and delivery',
    before.results.statements?.perDelivery,
    after.results.statements?.perDelivery,
    (v) => num(v, 1),
  );
  // A run from before issue 23 has no floor: its cells read –.
  for (const inFlight of (after.results.engineFloor ?? []).map((run) => run.concurrency)) {
    const find = (results: Results) => results.engineFloor?.find((run) => run.concurrency === inFlight);
    row(
      `Engine floor (the delivery's engine shape), N = ${inFlight}`,
      find(before.results)?.rate,
      find(after.results)?.rate,
      (v) => `${num(v)} /s`,
    );
  }
  const [bFloor, aFloor] = [bestFloor(before.results), bestFloor(after.results)];
  row(
    'Closed-loop saturation ÷ engine floor (best N of each)',
    bBest && bFloor && bBest.rate / bFloor.rate,
    aBest && aFloor && aBest.rate / aFloor.rate,
    (v) => v.toFixed(2),
  );
  row(
    'Engine, regular activity, no eager start (empty workflow)',
    before.results.engine?.rate,
    after.results.engine?.rate,
    (v) => `${num(v)} /s`,
  );

  return [
    '## Before and after (npm run bench:compare)',
    '',
    `Two runs of the same bench (this checkout's load generator), one right after the other on this machine: ` +
      `before = \`${before.label}\` (${before.commit.slice(0, 10)}), load average ${before.results.machine.loadAverage} ` +
      `at its start; after = ${after.label} (${after.commit.slice(0, 10)}), load average ` +
      `${after.results.machine.loadAverage} at its start. Ratios are after ÷ before; the machine is shared, so ` +
      'read them together with the load averages.',
    '',
    table(['measure', 'before', 'after', 'after ÷ before'], rows),
    '',
  ].join('\n');
}
