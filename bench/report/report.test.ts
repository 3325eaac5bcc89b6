// The report's engine floor (issue 23): the delivery path against the delivery's engine shape with
// a no-op attempt, at the same loads, beside the old ceilings relabelled; and npm run bench:compare
// against a revision from before the floor, whose JSON has none.
import { renderComparison } from './compare-report';
import type { CpuUsage, Group } from '../cpu';
import type { EngineReport } from '../engine';
import { renderResults, type Results } from './report';
import { summarize } from '../stats';

/** CPU in % of one core per group. */
function cpu(groups: Partial<Record<Group, number>>): CpuUsage {
  return {
    seconds: 10,
    groups: { 'api+worker': 0, postgresql: 0, temporal: 0, bench: 0, other: 0, ...groups },
    threads: {},
    machine: 100,
    foreign: 0,
    foreignTop: [],
    steal: 0,
  };
}

function engineRun(
  shape: EngineReport['shape'],
  concurrency: number,
  rate: number,
  usage: CpuUsage,
): EngineReport & { cpu: CpuUsage } {
  const latency = summarize([100, 200]);
  return { shape, concurrency, rate, completed: rate * 7, failed: 0, latency, cpu: usage };
}

/** A run with the closed loops, the ceilings and, unless left out, the floor. */
function results(options: { floor: boolean }): Results {
  return {
    machine: {
      cpuModel: 'test',
      cores: 2,
      memoryGiB: 8,
      node: 'v20',
      kernel: 'Linux',
      date: '2026-11-26',
      loadAverage: '0.1, 0.1, 0.1',
    },
    settings: { stepSeconds: 20, rates: [], phases: ['engine', 'saturation'] },
    rest: [],
    steps: [],
    saturation: [10, 50].map((inFlight) => ({
      inFlight,
      rate: 40,
      latency: summarize([200, 300]),
      failedWrites: 0,
      lost: 0,
      cpu: cpu({ 'api+worker': 80, temporal: 60, postgresql: 20, bench: 8 }),
    })),
    engine: engineRun('empty', 50, 45, cpu({ temporal: 100, bench: 55 })),
    engineDeliveryShaped: engineRun('delivery', 50, 40, cpu({ temporal: 100, bench: 50 })),
    ...(options.floor && {
      engineFloor: [
        {
          ...engineRun('floor', 10, 80, cpu({ temporal: 80, bench: 72 })),
          starts: { total: 600, eager: 600 },
        },
        { ...engineRun('floor', 50, 50, cpu({ temporal: 60, bench: 45 })), unfinished: 0 },
      ],
    }),
    receiver: { duplicates: 0, badSignatures: 0, unparsable: 0 },
    deliveryStatuses: {},
    notes: [],
    elapsedS: 60,
  };
}

const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

describe('the engine floor in the report', () => {
  it('divides each closed loop by the floor at the same N, and its CPU per delivery by the floor’s', () => {
    const text = renderResults(results({ floor: true }));
    expect(line(text, '| Closed-loop deliveries/s ÷ engine floor, N = 10')).toContain('0.50 (40.0 ÷ 80.0)');
    expect(line(text, '| Closed-loop deliveries/s ÷ engine floor, N = 50')).toContain('0.80 (40.0 ÷ 50.0)');
    expect(text).toContain('## The delivery path against the engine floor');
    // 40/s with Temporal at 60%: 15 ms per delivery; the floor at 80/s with 80%: 10 ms per workflow.
    const cpuRow = text.split('\n').filter((l) => l.startsWith('| 10 in flight'))[1]!;
    expect(cpuRow.split('|').map((cell) => cell.trim())).toEqual([
      '',
      '10 in flight',
      '15.0 / 10.0 ms',
      '20.0 / 9.0 ms',
      '5.0 / 0.0 ms',
      '40.0 / 19.0 ms',
      '21.0 ms',
      '',
    ]);
    expect(text).toContain('N = 10: 600 of 600 started eagerly, 0 failed, completion not checked');
    expect(text).toContain('engine, regular activity, no eager start: empty workflow');
    expect(text).not.toContain('÷ engine ceiling');
  });

  it('falls back to the regular-activity engine, named as such, in a run without the floor', () => {
    const text = renderResults(results({ floor: false }));
    expect(text).not.toContain('engine floor');
    expect(text).toContain('Engine, regular activity, no eager start: empty workflow + one no-op activity');
  });
});

const compared = (floor: boolean) => ({
  label: floor ? 'after' : 'before',
  commit: '0123456789ab',
  results: results({ floor }),
});
const cells = (text: string, measure: string) =>
  line(text, `| ${measure}`)
    ?.split('|')
    .slice(2, -1)
    .map((cell) => cell.trim());

describe('npm run bench:compare with a run that has no engine floor', () => {
  it('shows the floor after only, with no ratio', () => {
    const text = renderComparison({ before: compared(false), after: compared(true) });
    expect(cells(text, "Engine floor (the delivery's engine shape), N = 10")).toEqual(['–', '80.0 /s', '–']);
    expect(cells(text, 'Closed-loop saturation ÷ engine floor (best N of each)')).toEqual(['–', '0.50', '–']);
    expect(cells(text, 'Engine, regular activity, no eager start (empty workflow)')).toEqual([
      '45.0 /s',
      '45.0 /s',
      '1.00×',
    ]);
  });

  it('compares the floor when both runs have it', () => {
    const text = renderComparison({ before: compared(true), after: compared(true) });
    expect(cells(text, "Engine floor (the delivery's engine shape), N = 50")).toEqual([
      '50.0 /s',
      '50.0 /s',
      '1.00×',
    ]);
  });
});
